import AppStore
import LiveIndex
import Logging
import PostgresSupport
import Posts
import ServiceLifecycle
import SmashtagApp
import Synchronization

/// `serve --ingest bluesky`: the live index as a service of the server, its progress kept for the pages and logged
/// once a minute; it commits what it has and stops when the server shuts down.
struct LiveIndexService: Service {
    let index: JetstreamLiveIndex
    let status: LiveIndexStatus
    /// Among servers sharing a PostgreSQL store, the one elected runs the index.
    let database: AppDatabase
    let logger: Logger

    func run() async throws {
        let log = MinuteLog(logger: logger)
        do {
            try await cancelWhenGracefulShutdown {
                status.follow()
                try await database.whileElected(.liveIndex) {
                    status.lead()
                    let removals = LiveIndexRemovals(database: database)
                    let total = try await index.run(
                        progress: { progress in
                            status.update(progress)
                            log.note(progress)
                        }, removed: { await removals.apply($0, logger: logger) })
                    logger.info("The live index stopped: \(total.posts) posts stored this run.")
                }
            }
        } catch is CancellationError {
            logger.debug("the live index stopped")
        }
    }
}

/// A log line about the live index at most once a minute.
private final class MinuteLog: Sendable {
    let logger: Logger
    private let throttle = Mutex(Throttle(every: .seconds(60)))

    init(logger: Logger) {
        self.logger = logger
    }

    func note(_ progress: IngestProgress) {
        guard throttle.withLock({ $0.allows() }) else { return }
        let lag = progress.lag().map { "\(Int($0.rounded())) s behind" } ?? "no events yet"
        logger.info(
            "Live index of Bluesky: \(progress.stored ?? 0) posts in the corpus, \(progress.posts) this run, \(lag).")
    }
}
