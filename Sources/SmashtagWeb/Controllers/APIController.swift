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
        router.on(.apiTweet) { _, context in try await tweet(context.parameters.require("id")) }
        router.on(.apiRecents) { _, _ in JSONBody(try await Recents(database: site.database).terms()) }
    }

    private func search(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let query = parameters["q"].map(String.init)?.trimmed, !query.isEmpty else {
            return try JSONBody(APIError(error: "Give a query: /api/search?q=…"), status: .badRequest).response
        }
        guard let count = Self.count(parameters["count"]) else {
            return try JSONBody(APIError(error: "count must be a whole number from 1 to \(SearchRequest.maximumCount)."), status: .badRequest).response
        }
        let position = SearchRequest.Position(since: parameters["since"], before: parameters["before"])
        do {
            let page = try await site.sessions.fetch(query, at: position, count: count)
            let document = try tweets.searchDocument(query: query, tweets: page.tweets, newer: page.newer.position.sinceID, older: page.older?.position.beforeID)
            return JSONBody<String>.response(json: document)
        } catch let error as QueryError {
            return try JSONBody(APIError(error: error.description), status: .badRequest).response
        } catch {
            return try JSONBody(APIError(error: PagesController.sentence(for: error)), status: .badGateway).response
        }
    }

    /// The page size asked for: 20 when not given, nil when it is not 1…100 (said, not quietly clamped).
    private static func count(_ text: Substring?) -> Int? {
        guard let text else { return 20 }
        return Int(text).flatMap { (1...SearchRequest.maximumCount).contains($0) ? $0 : nil }
    }

    private func tweet(_ id: String) async throws -> Response {
        guard let tweet = try await site.database.storedTweet(id: id) else {
            return try JSONBody(APIError(error: "No tweet \(id) among the tweets fetched for recent searches."), status: .notFound).response
        }
        return JSONBody<Post>.response(json: try tweets.json(for: tweet))
    }
}

/// SPEC §5's search document, with the ids to page from: `?since=<newer>` and `?before=<older>`. Written by
/// `TweetJSONCache.searchDocument`, byte for byte as `JSONEncoder` writes this.
struct SearchDocument: Encodable {
    let query: String
    let tweets: [Post]
    let newer: String?
    let older: String?
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
