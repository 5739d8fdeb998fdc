import Foundation
import Hummingbird
import ServiceLifecycle
import Smashtag

/// `/api/popularity?term=` and its live twin `/api/popularity/events?term=`: server-sent events, one `table` event
/// with the whole table (SPEC §5 JSON) now and after every change, written by this process or any other.
struct PopularityEventsController: Sendable {
    let site: Site
    /// Tests may end a stream after this many events; browsers never do.
    var maximumEvents: Int? = nil

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.on(.apiPopularity) { request, _ in
            try JSONBody(try await Popularity(database: site.database).table(for: try term(request))).response
        }
        router.on(.apiPopularityEvents) { request, _ in try events(request) }
    }

    private func term(_ request: Request) throws -> String {
        guard let term = request.uri.queryParameters["term"].map(String.init)?.trimmed, !term.isEmpty else { throw HTTPError(.badRequest) }
        return term
    }

    private func events(_ request: Request) throws -> Response {
        let updates = try Popularity(database: site.database).updates(for: try term(request))
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let maximumEvents = maximumEvents
        // The stream ends when the browser goes away and when the server shuts down, whichever comes first.
        return Response(status: .ok, headers: headers, body: .init { writer in
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                var sent = 0
                for try await table in updates.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: EventFrame(name: "table", data: try JSONBody(table).json).text))
                    sent += 1
                    if let maximumEvents, sent >= maximumEvents { break }
                }
            }
            try await writer.finish(nil)
        })
    }
}

/// One server-sent event: its name and its data, a `data:` line per line of the data.
struct EventFrame {
    let name: String
    let data: String

    var text: String {
        "event: \(name)\n" + data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
    }
}
