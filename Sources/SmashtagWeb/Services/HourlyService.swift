import Logging
import Posts
import ServiceLifecycle

/// Upkeep run at start and then every hour while the server runs (retention, rechecks). A run that fails (the
/// database away) is logged in a sentence and tried again at the next hour.
struct HourlyService: Service {
    static let interval = Duration.seconds(3_600)

    /// What the log calls it.
    let name: String
    let logger: Logger
    let work: @Sendable () async throws -> Void

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await work()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning(
                        "\(name): this run failed; it runs again in an hour",
                        metadata: ["error": "\(ErrorSentence.forLog(error))"])
                }
                // Shutting down cancels the sleep: the service ends, not as a failure.
                do { try await Task.sleep(for: Self.interval) } catch { return }
            }
        }
    }
}
