import AppStore
import Exports
import Foundation
import Hummingbird
import Posts
import SmashtagApp
import Team

/// A term's Popularity page and a mention's trend chart under either tab; their JSON twins `/api/popularity` and
/// `/api/popularity/trend`; and the live twin `/api/popularity/events`: server-sent events, the table now and after
/// every change, written by this process or any other.
struct PopularityController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        for tab in Tab.allCases {
            router.on(.popularity(tab)) { request, context in try await popularity(request, context, tab: tab) }
            router.on(.trend(tab)) { request, context in try await trend(request, context, tab: tab) }
        }
        router.on(.apiPopularity) { request, context in try await apiPopularity(request, context) }
        router.on(.apiPopularityEvents) { request, context in
            try EventStreams.answerOutsideItsConnection(request, context.queryString, plan: stream)
        }
        router.on(.apiTrend) { request, context in try await apiTrend(request, context) }
        router.on(.apiConversations) { request, context in try await apiConversations(request, context) }
    }

    private func popularity(_ request: Request, _ context: SiteContext, tab: Tab) async throws -> HTML {
        let parameters = context.queryString
        guard let term = parameters.text("term") else {
            return .error("Choose a term in Recents to see its popular hashtags and users.", status: .badRequest)
        }
        let window = try TimeWindow.parameter(parameters)
        let data = try await LivePopularity(database: site.database).page(for: term, window: window)
        let here = SiteURL.popularity(tab, term: term, window: window).path
        let (token, isNew) = CSRF.token(of: request)
        let tracking = TrackingStatus(term: data.overview.table.term, tracked: data.tracked, csrf: token, back: here)
        let view = PopularityPageView(
            data, tracking: tracking, tab: tab, back: parameters.back ?? SiteURL.recents.path, here: here)
        var page = HTML(view)
        if isNew { page.headers[.setCookie] = CSRF.cookie(token) }
        return page
    }

    /// The table as JSON, or as a CSV file with `format=csv`.
    private func apiPopularity(_ request: Request, _ context: SiteContext) async throws -> Response {
        let window = try TimeWindow.parameter(context.queryString)
        let term = try term(context.queryString)
        let popularity = Popularity(database: site.database)
        guard try await popularity.isCounted(term) else {
            throw RefusedRequest(.notFound, Popularity.notInRecents(term))
        }
        let table = try await popularity.table(for: term, window: window)
        switch context.queryString["format"] {
        case nil, "json": return try JSONBody(table).response
        case "csv":
            try Needs.check(Needs.export, context)
            return Download.response(
                PopularityFile.csv(table), type: "text/csv; charset=utf-8", name: PopularityFile.name(table))
        default: throw RefusedRequest(.badRequest, "format must be json or csv.")
        }
    }

    private func trend(_ request: Request, _ context: SiteContext, tab: Tab) async throws -> HTML {
        let parameters = context.queryString
        switch try await TrendParameters.series(parameters, in: site.database) {
        case .failure(let problem): return .error(problem.message, status: problem.status)
        case .success(let series):
            return HTML(TrendPageView(series, end: parameters.time("end"), tab: tab, back: parameters.back))
        }
    }

    /// The series as JSON; 400 with a sentence when the term, the mention or the bucket is missing or wrong.
    private func apiTrend(_ request: Request, _ context: SiteContext) async throws -> Response {
        switch try await TrendParameters.series(context.queryString, in: site.database) {
        case .failure(let problem):
            return try JSONBody(APIError(error: problem.message), status: problem.status).response
        case .success(let series): return try JSONBody(series).response
        }
    }

    /// The term's conversations as JSON (`limit` of each, 5 by default); a 404 with a sentence when it is not in
    /// Recents.
    private func apiConversations(_ request: Request, _ context: SiteContext) async throws -> Response {
        let parameters = context.queryString
        guard let term = parameters.text("term") else {
            throw RefusedRequest(.badRequest, "Choose a term in Recents: ?term=…")
        }
        var limit = TermConversations.limit
        if let text = parameters["limit"], !text.isEmpty {
            guard let number = Int(text), TermConversations.limits.contains(number) else {
                throw RefusedRequest(.badRequest, "limit must be a number from 1 to 100.")
            }
            limit = number
        }
        guard let conversations = try await Popularity(database: site.database).conversations(for: term, limit: limit)
        else { throw RefusedRequest(.notFound, Popularity.notInRecents(term)) }
        return try JSONBody(conversations).response
    }

    private func term(_ parameters: QueryString) throws -> String {
        guard let term = parameters.text("term") else { throw HTTPError(.badRequest) }
        return term
    }

    /// The live twin's stream (`EventStreamHandler` writes it): `table` events for API clients; a Popularity page
    /// (`rows=<tab>`) gets `rows` and `tracking` events instead: its sections and its tracking line rendered as the
    /// page renders them, sparklines included. A term that is missing or empty is refused as the page refuses it.
    @Sendable func stream(_ parameters: QueryString) throws -> EventStream {
        let term = try self.term(parameters)
        let termKey = try SearchTermKey(term)
        let window = try TimeWindow.parameter(parameters)
        let popularity = LivePopularity(database: site.database)
        guard let tab = parameters["rows"].flatMap(Tab.init(rawValue:)) else {
            return EventStream(key: "table \(window) \(termKey.key)") { publish in
                for try await table in try popularity.updates(for: term, window: window) {
                    publish(EventFrame.bytes([EventFrame(name: "table", data: try JSONBody(table).json)]))
                }
            }
        }
        // The rows link back to the page by the term as it was asked for, so that spelling is part of the key.
        let here = SiteURL.popularity(tab, term: term, window: window).path
        return EventStream(key: "rows \(here)") { publish in
            for try await page in try popularity.pageUpdates(for: term, window: window) {
                publish(
                    EventFrame.bytes([
                        EventFrame(name: "rows", data: PopularityRows(page, tab: tab, here: here).rendered),
                        EventFrame(name: "tracking", data: TrackingState(page.tracked).rendered),
                    ]))
            }
        }
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
    static func series(_ parameters: QueryString, in database: AppDatabase) async throws -> Result<TrendSeries, Problem>
    {
        let asked: TrendParameters
        switch parse(parameters) {
        case .failure(let problem): return .failure(problem)
        case .success(let parameters): asked = parameters
        }
        let series = try await Trends(database: database).series(
            term: asked.term, mention: asked.mention, bucket: asked.bucket)
        guard series.isInRecents else {
            return .failure(
                Problem(
                    message:
                        """
                        “\(asked.term)” is not in Recents: trends are counted from the posts fetched for a recent \
                        search.
                        """,
                    status: .notFound))
        }
        return .success(series)
    }

    private static func parse(_ parameters: QueryString) -> Result<TrendParameters, Problem> {
        guard let term = parameters.text("term") else {
            return .failure(Problem(message: "Give a term: ?term=…&mention=…"))
        }
        guard let mention = parameters.text("mention"), mention.count > 1,
            mention.hasPrefix("#") || mention.hasPrefix("@")
        else {
            return .failure(Problem(message: "Give a mention, a #hashtag or an @user: ?term=…&mention=…"))
        }
        guard let text = parameters["bucket"] else {
            return .success(TrendParameters(term: term, mention: mention, bucket: nil))
        }
        guard let bucket = TrendBucket(rawValue: text) else {
            return .failure(Problem(message: "bucket must be hour or day."))
        }
        return .success(TrendParameters(term: term, mention: mention, bucket: bucket))
    }
}
