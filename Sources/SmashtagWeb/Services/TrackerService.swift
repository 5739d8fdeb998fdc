import Logging
import ServiceLifecycle
import Tracking

/// The tracker as a service of the server: it collects the tracked terms while the server runs and stops when it
/// shuts down. Every server sharing a PostgreSQL store runs one; each term due is fetched by one of them at a time.
struct TrackerService: Service {
    let tracker: Tracker
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await tracker.run() }
        } catch is CancellationError {
            logger.debug("the tracker stopped")
        }
    }
}
