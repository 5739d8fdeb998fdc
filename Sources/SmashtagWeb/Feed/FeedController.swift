import AppStore
import Foundation
import Hummingbird
import Logging
import Posts
import SmashtagApp
import Team

/// `/search/feed?q=…[&source=…]`: a search as RSS 2.0. A poll counts its posts for popularity like a
/// search while the term is in Recents, and never adds or moves it there (`SearchSessions.poll`).
///
/// When the search cannot give posts: a query that can never run (a syntax error) is a valid feed with one item
/// that says why, since feed readers show items and not error pages; a failure that may pass (a source down or
/// rate-limited) is a 503 with `Retry-After`, so the reader keeps what it has and tries again later, rather than
/// keeping an error item for ever.
struct FeedController: Sendable {
    let site: Site
    static let itemCount = 20
    /// Seconds a reader is asked to wait after a failure that may pass.
    static let retryAfter = 300

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.searchFeed) { request, context in try await feed(request, context) }
    }

    private func feed(_ request: Request, _ context: SiteContext) async throws -> Response {
        let search = SearchParameters(context.queryString, cookie: nil, offered: site.sources(for: context.caller))
        let address = SiteAddress(
            host: request.head.authority, forwardedProto: request.headers[.init("X-Forwarded-Proto")!])
        guard let query = search.query else { return Self.plain("Give a query: /search/feed?q=…", status: .badRequest) }
        guard !search.sources.sources.isEmpty else {
            return Self.plain(
                "source names none of this server's sources: \(site.sources.names.joined(separator: ", ")).",
                status: .badRequest)
        }
        let names = search.choice.namesIfChosen
        try site.spendLive(search.sources, by: context)
        do {
            let page = try await site.sessions.poll(
                query, from: search.sources, count: Self.itemCount,
                recording: RequestSite.mayRecord(request) && context.caller.holder != nil)
            let posts = try await site.shown(page.posts, to: context.caller)
            return FeedResponse(SearchFeedView(query: query, posts: posts, sourceNames: names, address: address))
                .response(to: request)
        } catch let error as QueryError {
            return FeedResponse(SearchFeedView(query: query, problem: error.description, address: address)).response(
                to: request)
        } catch {
            site.logger.info("feed failed", metadata: ["query": "\(query)", "error": "\(error)"])
            var response = Self.plain(SearchFailure(error).messages.joined(separator: " "), status: .serviceUnavailable)
            response.headers[.retryAfter] = String(Self.retryAfter)
            return response
        }
    }

    private static func plain(_ sentence: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: sentence + "\n")))
    }
}

/// A feed with its validators: a weak `ETag` of its bytes (weak, as compression changes them) and `Last-Modified`
/// of its newest item; 304 Not Modified when the reader's copy is still current.
struct FeedResponse {
    let body: [UInt8]
    let tag: String
    let lastModified: Date?

    init(_ view: SearchFeedView) {
        body = view.document.bytes
        tag = "W/\"" + StableHash.hex(of: body) + "\""
        lastModified = view.newest.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
    }

    func response(to request: Request) -> Response {
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache"]
        if let lastModified { headers[.lastModified] = UTCTime(lastModified).rfc822 }
        guard !isCurrent(request) else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "application/rss+xml; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `If-None-Match` decides when it is sent (RFC 9110 §13.2.2); else `If-Modified-Since`.
    private func isCurrent(_ request: Request) -> Bool {
        if let match = request.headers[.ifNoneMatch] {
            return match.split(separator: ",").contains {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == self.tag || tag == "*"
            }
        }
        guard let since = request.headers[.ifModifiedSince].flatMap(UTCTime.parseHTTPDate), let lastModified else {
            return false
        }
        return lastModified <= since
    }
}
