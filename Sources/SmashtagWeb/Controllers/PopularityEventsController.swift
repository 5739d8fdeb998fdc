import Foundation
import Hummingbird
import ServiceLifecycle
import Smashtag

/// `/api/popularity?term=` and its live twin `/api/popularity/events?term=`: server-sent events, one `table` event
/// with the whole table (SPEC §5 JSON) now and after every change, written by this process or any other; and a
/// mention's trend, `/api/popularity/trend` (SPEC §8).
struct PopularityEventsController: Sendable {
    let site: Site
    /// Tests may end a stream after this many events; browsers never do.
    var maximumEvents: Int? = nil

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.on(.apiPopularity) { request, _ in
            try JSONBody(try await Popularity(database: site.database).table(for: try term(request))).response
        }
        router.on(.apiPopularityEvents) { request, _ in try events(request) }
        router.on(.apiTrend) { request, _ in try await trend(request) }
    }

    /// SPEC §8's series; 400 with a sentence when the term, the mention or the bucket is missing or wrong.
    private func trend(_ request: Request) async throws -> Response {
        switch try await TrendParameters.series(request.queryString, in: site.database) {
        case .failure(let problem): return try JSONBody(APIError(error: problem.message), status: problem.status).response
        case .success(let series): return try JSONBody(series).response
        }
    }

    private func term(_ request: Request) throws -> String {
        guard let term = request.queryString["term"]?.trimmed, !term.isEmpty else { throw HTTPError(.badRequest) }
        return term
    }

    /// `table` events for API clients; a Popularity page (`rows=<tab>`) gets `rows` events instead: its sections
    /// rendered as the page renders them, sparklines included.
    private func events(_ request: Request) throws -> Response {
        let term = try term(request)
        let popularity = Popularity(database: site.database)
        guard let tab = request.queryString["rows"].flatMap(Tab.init(rawValue:)) else {
            let updates = try popularity.updates(for: term)
            return stream(request, updates) { EventFrame(name: "table", data: try JSONBody($0).json) }
        }
        let updates = try popularity.overviewUpdates(for: term)
        let here = SiteURL.popularity(tab, term: term).path
        return stream(request, updates) { EventFrame(name: "rows", data: PopularityRows($0, tab: tab, here: here).rendered) }
    }

    /// An event for each update; the stream ends when the browser goes away and when the server shuts down,
    /// whichever comes first.
    private func stream<Value: Sendable>(
        _ request: Request, _ updates: AsyncThrowingStream<Value, any Error>, frame: @escaping @Sendable (Value) throws -> EventFrame
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let maximumEvents = maximumEvents
        return Response(status: .ok, headers: headers, body: .init { writer in
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                var sent = 0
                for try await value in updates.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: try frame(value).text))
                    sent += 1
                    if let maximumEvents, sent >= maximumEvents { break }
                }
            }
            try await writer.finish(nil)
        })
    }
}

/// What a trend is asked for: `term`, `mention` (`#tag` or `@user`) and, optionally, `bucket=hour|day`.
struct TrendParameters {
    /// Why there is no series: a sentence and its status.
    struct Problem: Error {
        let message: String
        var status: HTTPResponse.Status = .badRequest
    }

    let term: String
    let mention: String
    let bucket: TrendBucket?

    /// The series a request asks for; a bad parameter is a 400, a term not in Recents (nothing is counted for it)
    /// a 404.
    static func series(_ parameters: QueryString, in database: AppDatabase) async throws -> Result<TrendSeries, Problem> {
        let asked: TrendParameters
        switch parse(parameters) {
        case .failure(let problem): return .failure(problem)
        case .success(let parameters): asked = parameters
        }
        let series = try await Trends(database: database).series(term: asked.term, mention: asked.mention, bucket: asked.bucket)
        guard series.isInRecents else {
            return .failure(Problem(message: "“\(asked.term)” is not in Recents: trends are counted from the posts fetched for a recent search.", status: .notFound))
        }
        return .success(series)
    }

    private static func parse(_ parameters: QueryString) -> Result<TrendParameters, Problem> {
        guard let term = parameters["term"]?.trimmed, !term.isEmpty else {
            return .failure(Problem(message: "Give a term: ?term=…&mention=…"))
        }
        guard let mention = parameters["mention"]?.trimmed, mention.count > 1,
              mention.hasPrefix("#") || mention.hasPrefix("@") else {
            return .failure(Problem(message: "Give a mention, a #hashtag or an @user: ?term=…&mention=…"))
        }
        guard let text = parameters["bucket"] else { return .success(TrendParameters(term: term, mention: mention, bucket: nil)) }
        guard let bucket = TrendBucket(rawValue: text) else {
            return .failure(Problem(message: "bucket must be hour or day."))
        }
        return .success(TrendParameters(term: term, mention: mention, bucket: bucket))
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
