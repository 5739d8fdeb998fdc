import Corpus
import Logging
import ServiceLifecycle

/// The demo's live tweeter as a service of the server: it stops when the server shuts down.
struct DemoTweeterService: Service {
    let tweeter: DemoTweeter
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await tweeter.run() }
        } catch is CancellationError {
            logger.debug("the demo tweeter stopped")
        }
    }
}
