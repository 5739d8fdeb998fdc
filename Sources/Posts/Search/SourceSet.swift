import CoreMetrics

/// A source as a person chooses it: by its `--source` name or its toggle on the Search page.
public struct NamedSource: Sendable {
    /// `corpus`, `x`, `mastodon`, `bluesky`: what `--source` and `source=` take.
    public let name: String
    /// What the toggle and an error say: "Corpus", "X", "Mastodon (mastodon.social)".
    public let title: String
    public let source: any PostSource

    public init(name: String, title: String, source: any PostSource) {
        self.name = name
        self.title = title
        self.source = source
    }
}

/// Several sources searched as one: each asked for a page at its own position, the answers merged newest first.
/// A source that fails leaves the others' posts standing; only when every source fails is the search an error.
public struct SourceSet: Sendable {
    public let sources: [NamedSource]

    public init(_ sources: [NamedSource]) {
        self.sources = sources
    }

    /// One source: for tools and tests that search one (named `corpus` unless told).
    public init(only source: any PostSource, name: String = "corpus") {
        self.init([NamedSource(name: name, title: name, source: source)])
    }

    public var names: [String] { sources.map(\.name) }

    /// The sources with these names, in this set's order.
    public func choosing(_ names: some Sequence<String>) -> SourceSet {
        let chosen = Set(names)
        return SourceSet(sources.filter { chosen.contains($0.name) })
    }

    /// A merged page: `count` posts at most. Asks every source the position names (all of them for the newest)
    /// at once, so a slow source delays the page by its own time only.
    public func search(_ request: MergedRequest) async throws -> MergedPage {
        let asked = sources.compactMap { source in request.position.position(of: source.name).map { (source, $0) } }
        let answers = await withTaskGroup(of: SourceAnswer.self) { group in
            for (source, position) in asked {
                let sourceRequest = SearchRequest(query: request.query, count: request.count, position: position)
                group.addTask { await SourceAnswer(source, sourceRequest) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        return try MergedPage(merging: answers.sorted { order(of: $0.source) < order(of: $1.source) }, request)
    }

    private func order(of name: String) -> Int {
        sources.firstIndex { $0.name == name } ?? sources.count
    }
}

/// What a merged search asks: the query, how many posts in all, and where each source stands.
public struct MergedRequest: Sendable, Hashable {
    public let query: String
    public let count: Int
    public let position: MergedPosition

    public init(query: String, count: Int = 20, position: MergedPosition = .newest) {
        self.query = query
        self.count = min(max(count, 1), SearchRequest.maximumCount)
        self.position = position
    }
}

/// Which posts a merged page holds, for each source.
public enum MergedPosition: Sendable, Hashable {
    /// Every source's newest posts.
    case newest
    /// The posts just after each listed source's newest shown (`.newest` for a source that has shown none); the
    /// sources not listed are not asked.
    case newer([String: SearchRequest.Position])
    /// The posts before each listed source's oldest shown; a source not listed has nothing older.
    case older([String: SearchRequest.Position])

    /// Where the source is asked from; nil when it is not asked.
    func position(of source: String) -> SearchRequest.Position? {
        switch self {
        case .newest: .newest
        case .newer(let positions), .older(let positions): positions[source]
        }
    }

    public var isNewer: Bool {
        if case .newer = self { true } else { false }
    }
}

/// One source's answer: its page, or why it has none.
struct SourceAnswer: Sendable {
    let source: String
    let request: SearchRequest
    let outcome: Result<SearchPage, SourceFailure>

    init(_ named: NamedSource, _ request: SearchRequest) async {
        source = named.name
        self.request = request
        do {
            outcome = .success(try await named.source.search(request))
            SourceMetrics.record(source: named.name, failure: nil)
        } catch {
            outcome = .failure(SourceFailure(source: named.name, title: named.title, error: error))
            SourceMetrics.record(source: named.name, failure: error)
        }
    }
}

/// Every search of a source, and its failures by kind, for `/metrics`: `rate_limited` (a 429), `query` (a query the
/// source cannot answer), `outage` (this server's own database) or `network`.
enum SourceMetrics {
    private static let searches = MetricHandles(labels: ["source"]) {
        Counter(label: "smashtag_source_searches_total", dimensions: $0)
    }
    private static let errors = MetricHandles(labels: ["source", "kind"]) {
        Counter(label: "smashtag_source_search_errors_total", dimensions: $0)
    }

    static func record(source: String, failure: (any Error)?) {
        searches[source].increment()
        if let failure { errors[source, kind(of: failure)].increment() }
    }

    private static func kind(of error: any Error) -> String {
        if (error as? any RateLimitRefusal)?.isRateLimited == true { return "rate_limited" }
        if error is any MistakenRequest { return "query" }
        if error is any LocalOutage { return "outage" }
        return "network"
    }
}

/// Why one source of a search has no posts.
public struct SourceFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public let source: String
    public let title: String
    /// One sentence for the person searching.
    public let message: String
    /// The error as thrown, kept only to tell a query error apart.
    let isQueryError: Bool
    /// This server's own database was away (`LocalOutage`), not the source's network.
    public let isOutage: Bool

    public init(source: String, title: String, error: any Error) {
        self.source = source
        self.title = title
        message = SourceFailure.sentence(for: error)
        isQueryError = error is any MistakenRequest
        isOutage = error is any LocalOutage
    }

    /// What the person can act on; anything internal becomes a general sentence.
    public static func sentence(for error: any Error) -> String {
        (error as? any ExplainedError)?.description ?? "The search could not be completed. Try again in a moment."
    }

    public var description: String { message }
}

/// Every source asked failed: one sentence per source.
public struct SourcesFailed: ExplainedError, Sendable {
    public let failures: [SourceFailure]

    /// Every source failed because this server's database is away: the server cannot answer until it is back.
    public var isOutage: Bool { failures.allSatisfy(\.isOutage) }

    /// Each failure's sentence names its source, so they stand alone.
    public var description: String {
        failures.map(\.message).joined(separator: "\n")
    }
}
