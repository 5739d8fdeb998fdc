import Logging
import Posts
import ServiceLifecycle
import SmashtagApp

/// `serve --keep-days`: the posts older than the keeping time leave, at start and then every hour, while the server
/// runs. A run that fails (the database away) is logged and tried again at the next hour.
struct RetentionService: Service {
    static let interval = Duration.seconds(3_600)

    let retention: Retention
    let logger: Logger

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await runOnce()
                try await Task.sleep(for: Self.interval)
            }
        }
    }

    private func runOnce() async {
        do {
            let outcome = try await retention.run()
            guard outcome.reduced + outcome.removed + outcome.corpus > 0 else { return }
            logger.info(
                "retention: posts past the keeping time left",
                metadata: [
                    "reduced": "\(outcome.reduced)", "removed": "\(outcome.removed)", "corpus": "\(outcome.corpus)",
                ])
        } catch is CancellationError {
        } catch {
            let why = (error as? any ExplainedError)?.description ?? "\(type(of: error))"
            logger.warning("retention: this hour's run failed; it runs again in an hour", metadata: ["error": "\(why)"])
        }
    }
}
