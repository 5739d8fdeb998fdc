import Foundation
import Hummingbird
import Smashtag
import Posts
import Twitter

/// The JSON twins of the pages (SPEC §5 shapes, plus paging cursors).
struct APIController: Sendable {
    let site: Site
    private let tweets = TweetJSONCache()

    init(site: Site) {
        self.site = site
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.on(.apiSearch) { request, _ in try await search(request) }
        router.on(.apiPost) { _, context in try await post(PagesController.postKey(context)) }
        router.on(.apiTweet) { _, context in try await post(PostKey(network: .twitter, id: context.parameters.require("id"))) }
        router.on(.apiRecents) { _, _ in JSONBody(try await Recents(database: site.database).terms()) }
    }

    private func search(_ request: Request) async throws -> Response {
        let search = SearchParameters(request, offered: site.sources)
        guard let query = search.query, !query.isEmpty else {
            return try JSONBody(APIError(error: "Give a query: /api/search?q=…"), status: .badRequest).response
        }
        guard let count = Self.count(request.queryString["count"]) else {
            return try JSONBody(APIError(error: "count must be a whole number from 1 to \(SearchRequest.maximumCount)."), status: .badRequest).response
        }
        guard !search.sources.sources.isEmpty else {
            let names = site.sources.names.joined(separator: ", ")
            return try JSONBody(APIError(error: "source names none of this server's sources: \(names)."), status: .badRequest).response
        }
        do {
            let page = try await site.sessions.fetch(query, from: search.sources, at: search.position, count: count)
            return JSONBody<String>.response(json: try document(query, page, search))
        } catch let error as QueryError {
            return try JSONBody(APIError(error: error.description), status: .badRequest).response
        } catch let error as SourcesFailed {
            return try JSONBody(APIError(error: error.description, errors: error.failures.map(SourceErrorJSON.init)), status: .badGateway).response
        } catch {
            return try JSONBody(APIError(error: SourceFailure.sentence(for: error)), status: .badGateway).response
        }
    }

    private func document(_ query: String, _ page: MergedPage, _ search: SearchParameters) throws -> String {
        let newer = search.choice.positions(page) { $0.newer.position }
        let older = search.choice.positions(page) { $0.older?.position }
        return try tweets.searchDocument(
            query: query, tweets: page.posts, newer: newer.isEmpty ? nil : PositionList.encode(newer),
            older: older.isEmpty ? nil : PositionList.encode(older), errors: page.failures.map(SourceErrorJSON.init))
    }

    /// The page size asked for: 20 when not given, nil when it is not 1…100 (said, not quietly clamped).
    private static func count(_ text: String?) -> Int? {
        guard let text else { return 20 }
        return Int(text).flatMap { (1...SearchRequest.maximumCount).contains($0) ? $0 : nil }
    }

    private func post(_ key: PostKey) async throws -> Response {
        guard let post = try await site.database.storedPost(key) else {
            return try JSONBody(APIError(error: "No \(key.network.rawValue) post \(key.id) among the posts fetched for recent searches."), status: .notFound).response
        }
        return JSONBody<Post>.response(json: try tweets.json(for: post))
    }
}

/// SPEC §5's search document, with where each source goes on: `?since=<newer>` and `?before=<older>` (each a list
/// `source:id,…`), and `errors`, one per source that failed while others answered. Written by
/// `TweetJSONCache.searchDocument`, byte for byte as `JSONEncoder` writes this.
struct SearchDocument: Encodable {
    let query: String
    let tweets: [Post]
    let newer: String?
    let older: String?
    let errors: [SourceErrorJSON]?
}

/// A source's failure in JSON: `{"source": "mastodon", "message": "…"}`.
struct SourceErrorJSON: Encodable, Sendable {
    let source: String
    let message: String

    init(_ failure: SourceFailure) {
        (source, message) = (failure.source, failure.message)
    }
}

/// A JSON response.
struct JSONBody<Value: Encodable>: ResponseGenerator {
    let value: Value
    var status: HTTPResponse.Status = .ok

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    var response: Response {
        get throws {
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoded())))
        }
    }

    /// JSON text already written.
    static func response(json: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    /// The value as compact JSON text.
    var json: String {
        get throws { String(decoding: try encoded(), as: UTF8.self) }
    }

    private func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return try encoder.encode(value)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try response
    }
}
