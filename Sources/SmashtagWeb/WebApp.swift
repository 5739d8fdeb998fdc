import AppStore
import Corpus
import Foundation
import Hummingbird
import HummingbirdCore
import LiveIndex
import Logging
import NIOCore
import PostgresSupport
import Posts
import SmashtagApp
import Team
import Tracking

/// What the web app needs to start: where to listen and where the data is. `smashtag serve` provides it; tests
/// implement it with a plain struct.
public protocol AppArguments: Sendable {
    var host: String { get }
    var port: Int { get }
    var dataDirectory: String { get }
    /// The sources Smashtag knows and which are configured.
    var catalog: SourceCatalog { get }
    /// The sources the Search page offers (`--source`, else every configured one).
    var sourceNames: [SourceCatalog.Name] { get }
    var logLevel: Logger.Level { get }
    /// Called once the server listens, with its address (the port is known only then when 0 was asked for).
    func serverStarted(at url: String)
    /// How long a connection may stay silent (a request whose headers never end, an idle keep-alive) before it is
    /// closed. A response being written, such as a live event stream, is never cut by it.
    var idleTimeout: Duration { get }
    /// `--ingest bluesky`: the corpus is a live index of Bluesky's firehose, filled while the server runs.
    var liveIndex: LiveIndexSettings? { get }
    /// `--database`: the app's store in PostgreSQL, shared with other servers; nil for the data directory's SQLite.
    var database: PostgresURL? { get }
    /// How the tracker paces itself (tests shorten its pauses).
    var tracking: Tracker.Options { get }
    /// `--public`: visitors who are not signed in may read pages and search the corpus.
    var isPublic: Bool { get }
    /// `--trusted-proxy`: the addresses whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    var trustedProxies: [String] { get }
    /// How passwords are hashed (tests make bcrypt cheaper).
    var passwords: Passwords { get }
    /// What each caller may spend in an hour.
    var allowance: Budget.Allowance { get }
    /// Whether the server keeps metrics for `/metrics` (`serve --no-metrics`: it does not).
    var recordsMetrics: Bool { get }
    /// `--keep-days`: posts made before then leave the kept posts and the corpus every hour; nil keeps them.
    var keepDays: Int? { get }
    /// `--forget-counts`: with `keepDays`, their counts go too.
    var forgetsCounts: Bool { get }
    /// `--recheck-days`: every hour, the kept posts not found published within this many days are asked again of
    /// their networks; nil asks nothing.
    var recheckDays: Int? { get }
}

extension AppArguments {
    public var idleTimeout: Duration { .seconds(15) }
    public var liveIndex: LiveIndexSettings? { nil }
    public var database: PostgresURL? { nil }
    public var tracking: Tracker.Options { Tracker.Options() }
    public var isPublic: Bool { false }
    public var trustedProxies: [String] { [] }
    public var passwords: Passwords { Passwords() }
    public var allowance: Budget.Allowance { Budget.Allowance() }
    public var recordsMetrics: Bool { true }
    public var keepDays: Int? { nil }
    public var forgetsCounts: Bool { false }
    public var recheckDays: Int? { nil }
}

/// The Smashtag web app, ready to run: routes, the data it serves, and the demo's live tweeter when the source is
/// the demo corpus.
public func buildApplication(_ arguments: some AppArguments) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "smashtag")
    logger.logLevel = arguments.logLevel
    let site = try await Site.open(arguments, logger: logger)
    try await refuseAnOpenDoor(site, isPublic: arguments.isPublic)
    var app = Application(
        router: try buildRouter(site),
        server: httpServer(site, idleTimeout: arguments.idleTimeout),
        configuration: .init(address: .hostname(arguments.host, port: arguments.port), serverName: "Smashtag"),
        onServerRunning: { channel in
            arguments.serverStarted(at: "http://\(arguments.host):\(channel.localAddress?.port ?? arguments.port)/")
        },
        logger: logger
    )
    if let connections = site.database.service { app.addServices(connections) }
    let tracker = Tracker(
        terms: TrackedTerms(database: site.database), sources: site.sources, options: arguments.tracking, logger: logger
    )
    app.addServices(TrackerService(tracker: tracker, logger: logger))
    if let tweeter = site.demoTweeter {
        app.addServices(DemoTweeterService(tweeter: tweeter, database: site.database, logger: logger))
    }
    // Tracked terms' own keeping times (`track --keep`) apply whether or not the whole data has one.
    let retention = Retention(
        database: site.database, corpus: site.corpus, keepDays: arguments.keepDays,
        forgetCounts: arguments.forgetsCounts)
    app.addServices(HourlyService.retention(retention, logger: logger))
    if let days = arguments.recheckDays {
        let (database, corpus, sources) = (site.database, site.corpus, site.sources.sources)
        app.addServices(
            HourlyService.rechecks(
                { now in
                    let (lookups, _) = try await Recheck.lookups(in: sources, corpus: corpus)
                    return Recheck(
                        database: database, corpus: corpus, sources: lookups,
                        checkedBefore: now.addingTimeInterval(-Double(days) * 86_400))
                }, logger: logger))
    }
    if let live = site.liveIndex {
        app.addServices(
            LiveIndexService(index: live.index, status: live.status, database: site.database, logger: logger))
    }
    return app
}

/// A server reachable from other computers with no people added would let anyone who reaches it act as its owner:
/// it does not start.
private func refuseAnOpenDoor(_ site: Site, isPublic: Bool) async throws {
    guard !site.gate.isLoopback, !isPublic, try await People(database: site.database).all().isEmpty else { return }
    throw OpenDoor()
}

/// Why `serve` would not start on an address other computers reach.
public struct OpenDoor: ExplainedError {
    public var description: String {
        """
        Smashtag will not serve other computers with no people added: add someone with `smashtag user add NAME`, \
        or pass `--public` to let visitors read and search the corpus without signing in.
        """
    }
}

/// The HTTP/1 server: its idle timeout, and on each connection a small receive buffer and the live event streams'
/// handler, which writes the streams of `/api/popularity/events` beside the router (`EventStreamHandler` says why).
func httpServer(_ site: Site, idleTimeout: Duration) -> HTTPServerBuilder {
    let streams = EventStreams(
        feeds: site.liveFeeds, logger: site.logger,
        paths: [
            Route.apiPopularityEvents.pattern: { [api = site.api, controller = PopularityController(site: site)] in
                try api.checkParameters($0, path: Route.apiPopularityEvents.pattern, method: .get)
                return try controller.stream($0)
            }
        ],
        admission: { [gate = site.gate, proxies = site.proxies] request, peer in
            await CallerCheck.streamRefusal(
                request, peer: peer, gate: gate, proxies: proxies, access: Route.apiPopularityEvents.access)
        })
    return .http1(
        configuration: .init(
            additionalChannelHandlers: [ConnectionSetup(streams: streams)], idleTimeout: TimeAmount(idleTimeout)))
}

/// The routes: pages, their JSON twins, static files, the demo's pictures and what operators' tools read, inside the
/// middleware every response goes through (outermost first): logging, metrics, security headers, gzip, error pages for
/// anything thrown, the path, the API's parameters and the method checks.
func buildRouter(_ site: Site) throws -> Router<SiteContext> {
    let router = Router(context: SiteContext.self, options: .autoGenerateHeadEndpoints)
    let files = try FileManager.default.contentsOfDirectory(atPath: site.publicDirectory)
    // One stack of fixed types rather than a layer per middleware: fewer calls deep, for every request.
    router.addMiddleware {
        LogRequestsMiddleware(.info)
        RequestMetrics(isOn: site.metrics != nil)
        SecurityHeaders()
        Compression()
        ErrorPages(page: HTML.error, logger: site.logger)
        PathCheck()
        APIParameterCheck(api: site.api)
        MethodCheck(routes: Route.all, files: files)
        FileMiddleware(
            site.publicDirectory, cacheControl: .init([(MediaType(type: .any), [.maxAge(3600)])]), logger: site.logger)
        CallerCheck(gate: site.gate, proxies: site.proxies)
    }
    SearchController(site: site).addRoutes(to: router)
    PostController(site: site).addRoutes(to: router)
    ThreadController(site: site).addRoutes(to: router)
    RecentsController(site: site).addRoutes(to: router)
    TrackingController(site: site).addRoutes(to: router)
    PopularityController(site: site).addRoutes(to: router)
    NetworkController(site: site).addRoutes(to: router)
    VolumeController(site: site).addRoutes(to: router)
    DatasetController(site: site).addRoutes(to: router)
    FeedController(site: site).addRoutes(to: router)
    AssetsController(assets: site.assets).addRoutes(to: router)
    DemoPicturesController().addRoutes(to: router)
    SignInController(site: site).addRoutes(to: router)
    AuditController(site: site).addRoutes(to: router)
    HealthController(site: site).addRoutes(to: router)
    APIDescriptionController(api: site.api).addRoutes(to: router)
    if let registry = site.metrics {
        MetricsController(site: site, registry: registry).addRoutes(to: router)
    } else {
        router.on(.metrics) { _, _ -> Response in
            throw RefusedRequest(.notFound, "This server keeps no metrics: it was started with --no-metrics.")
        }
    }
    return router
}
