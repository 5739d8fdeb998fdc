import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// A live event stream: which feed it listens to, and how its response begins.
struct EventStream: Sendable {
    /// Everything the events depend on: streams with the same key share one feed.
    let key: String
    let reader: LiveFeeds.Reader

    /// A browser that lost the stream reconnects after this long.
    static let retry = ByteBuffer(string: "retry: 2000\n\n")
    /// A comment line, which every event-stream reader skips.
    static let heartbeat = ByteBuffer(string: ":\n\n")

    /// The response's fields, with the security headers every response carries.
    static let headers: HTTPFields = {
        var headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
        SecurityHeaders<SiteContext>.add(to: &headers)
        return headers
    }()
}

/// The addresses answered by live event streams, each with how its query string becomes a stream. `EventStreamHandler`
/// answers them on the connection itself; the router's route for the same address answers what it leaves: a query
/// that is refused (with the route's error, as any request), a `HEAD`, and a stream asked for while another request
/// is under way on the same connection.
struct EventStreams: Sendable {
    typealias Plan = @Sendable (QueryString) throws -> EventStream

    let feeds: LiveFeeds
    let logger: Logger
    let paths: [String: Plan]
    /// Why the request's caller may not have the stream; nil when they may.
    let admission: @Sendable (HTTPRequest, _ peer: String?) async -> EarlyRefusal?

    /// The stream a `GET` asks for; nil when it is not one, or its query string is refused.
    func stream(for request: HTTPRequest) -> EventStream? {
        guard request.method == .get, let target = request.path else { return nil }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let plan = paths[String(parts[0])] else { return nil }
        return try? plan(QueryString(decoding: parts.count > 1 ? parts[1] : ""))
    }

    /// What a route answers for a stream it does not write (see above): the refusal `plan` throws, the headers alone
    /// for a `HEAD`, else a sentence.
    static func answerOutsideItsConnection(_ request: Request, _ query: QueryString, plan: Plan) throws -> Response {
        _ = try plan(query)
        guard request.method == .head else {
            throw RefusedRequest(
                .badRequest, "A live stream needs a connection of its own: ask for it when nothing else is under way.")
        }
        return Response(status: .ok, headers: EventStream.headers)
    }
}

/// A request refused on its connection, before the router sees it: a live stream its caller may not have, or a
/// request HTTP cannot read (headers past the limit). The status, and the sentence as the JSON API says one.
struct EarlyRefusal: Sendable {
    let status: HTTPResponse.Status
    let sentence: String
    /// Seconds to wait before asking again (a 429, a 503).
    var retryAfter: Int? = nil

    /// Its head: JSON, closing the connection, with the headers every response carries.
    var headers: HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .connection: "close"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        SecurityHeaders<SiteContext>.add(to: &headers)
        return headers
    }

    var json: String {
        (try? JSONEncoder().encode(APIError(error: sentence))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// One server-sent event: its name and its data, a `data:` line per line of the data.
struct EventFrame {
    let name: String
    let data: String

    /// A reader of event streams ends a line at a CR, an LF or a CRLF (HTML's `EventSource` parser), so the data is
    /// cut at each of the three: a CR left inside a `data:` line would end it there and let what follows become a
    /// field of its own (`event:`, `retry:`) or the end of the event. The reader joins the lines with LF. A name is
    /// the code's own and never holds one.
    var text: String {
        "event: \(name)\n"
            + data.split(omittingEmptySubsequences: false, whereSeparator: Self.endsLine).map { "data: \($0)\n" }
            .joined() + "\n"
    }

    /// CRLF is one `Character`, so it is one line end, as the reader takes it.
    private static func endsLine(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }

    /// Frames as the bytes one write sends.
    static func bytes(_ frames: [EventFrame]) -> ByteBuffer {
        ByteBuffer(string: frames.map(\.text).joined())
    }
}

extension EarlyRefusal {
    /// A request the HTTP parser gave up on: its head too large (431), or not HTTP (400).
    init(_ error: HTTPParserError) {
        if error == .headerOverflow {
            self.init(
                status: .requestHeaderFieldsTooLarge,
                sentence: "This request's address and headers are too large: shorten the address.")
        } else {
            self.init(status: .badRequest, sentence: "This request is not one HTTP can read.")
        }
    }
}
