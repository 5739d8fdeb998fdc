import AppStore
import Corpus
import DemoCorpus
import Foundation
import LiveIndex
import Logging
import Posts
import Prometheus
import SmashtagApp
import Team
import Telemetry

/// Everything the controllers share: the sources, the app database, the static files.
struct Site: Sendable {
    /// Every source the Search page offers, in the catalogue's order.
    let sources: SourceSet
    let database: AppDatabase
    /// One for the whole server: it remembers the last search that changed nothing, so a repeated one is answered
    /// without asking the database again.
    let sessions: SearchSessions
    /// Posts' JSON for the JSON twins, made once per post.
    let postJSON = PostJSONCache()
    let publicDirectory: String
    let assets: StaticAssets
    let defaultQuery: String
    let demoTweeter: DemoTweeter?
    /// `serve --ingest bluesky`: the index filling the corpus, and its progress for the pages.
    let liveIndex: LiveIndex?
    /// Where the pseudonyms' secret is kept.
    let directory: DataDirectory
    /// Where this server makes the zips of datasets before they are sent.
    let temporaryFolder: TemporaryFolder
    /// Datasets are made a few at a time; the others wait.
    let downloads = DownloadTurns(most: max(2, ProcessInfo.processInfo.activeProcessorCount))
    let logger: Logger
    /// The live event streams' shared feeds: one reader per term, window and page, however many listen.
    let liveFeeds = LiveFeeds()
    /// Who each request is, and whether this server is the owner's or a team's.
    let gate: Gate
    let signIns: SignInDesk
    /// What each caller may spend in an hour.
    let budget: Budget
    /// The proxies whose forwarding headers are believed.
    let proxies: Client.Proxies
    let audit: AuditTrail
    /// The local corpus, for the readiness probe; nil when the corpus is not among the sources.
    let corpus: (any PostCorpus)?
    /// The API's description: served, and the parameters each operation takes.
    let api: APIDescription
    /// Where `/metrics` reads from; nil with `--no-metrics`.
    let metrics: PrometheusCollectorRegistry?

    struct LiveIndex: Sendable {
        let index: JetstreamLiveIndex
        let status: LiveIndexStatus
    }

    static func open(_ arguments: some AppArguments, logger: Logger) async throws -> Site {
        guard let resources = Bundle.module.resourcePath else { throw SiteError.missingResources }
        guard let assets = StaticAssets.bundled else { throw SiteError.missingResources }
        // Before anything records: metrics made before the backend is installed would go nowhere.
        let metrics = arguments.recordsMetrics ? ProcessMetrics.start() : nil
        let directory = DataDirectory(path: arguments.dataDirectory)
        let database = try await AppDatabase.open(
            url: arguments.database, orFileAt: directory.appDatabase, logger: logger)
        let names = arguments.sourceNames
        let local =
            names.contains(.corpus)
            ? try await openCorpus(
                LocalCorpus.corpus(in: directory, sharing: database), arguments.liveIndex, logger: logger) : nil
        let sources = arguments.catalog.open(
            names, corpus: local?.source, corpusTitle: local?.title ?? "Corpus", logger: logger)
        return Site(
            sources: sources, database: database, sessions: SearchSessions(database: database),
            publicDirectory: resources + "/Public", assets: assets,
            defaultQuery: local?.defaultQuery ?? "#swift", demoTweeter: local?.tweeter,
            liveIndex: local?.liveIndex.map { LiveIndex(index: $0, status: LiveIndexStatus()) }, directory: directory,
            temporaryFolder: try TemporaryFolder(in: directory.path + "/tmp"), logger: logger,
            gate: Gate(database: database, isLoopback: Self.isLoopback(arguments.host), isPublic: arguments.isPublic),
            signIns: SignInDesk(database: database, passwords: arguments.passwords),
            budget: Budget(arguments.allowance), proxies: Client.Proxies(addresses: Set(arguments.trustedProxies)),
            audit: AuditTrail(database: database), corpus: local?.corpus, api: try APIDescription.bundled(),
            metrics: metrics)
    }

    /// Whether `host` is this computer only: its name, or an address of 127.0.0.0/8 or ::1.
    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The corpus, the demo generated on first use (said once in the log).
    private static func openCorpus(
        _ corpus: any LiveIndexCorpus, _ liveIndex: LiveIndexSettings?, logger: Logger
    ) async throws -> LocalCorpus {
        try await LocalCorpus.open(corpus, liveIndex: liveIndex, logger: logger) { stored, count in
            if stored == 0 { logger.info("The corpus is empty: generating the demo corpus (\(count) posts)") }
        }
    }
}

enum SiteError: Error, CustomStringConvertible {
    case missingResources

    var description: String {
        switch self {
        case .missingResources: "the web app's static files are missing (SmashtagWeb resources)"
        }
    }
}
