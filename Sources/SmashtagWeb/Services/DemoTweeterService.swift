import AppStore
import DemoCorpus
import Logging
import PostgresSupport
import ServiceLifecycle

/// The demo's live tweeter as a service of the server: it stops when the server shuts down. Among servers sharing a
/// PostgreSQL store, one is elected to run it.
struct DemoTweeterService: Service {
    let tweeter: DemoTweeter
    let database: AppDatabase
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await database.whileElected(.demoTweeter) { try await tweeter.run() }
            }
        } catch is CancellationError {
            logger.debug("the demo tweeter stopped")
        }
    }
}
