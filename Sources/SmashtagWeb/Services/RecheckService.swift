import Logging
import SmashtagApp

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HourlyService {
    /// `serve --recheck-days N`: the kept posts no recheck has found published within N days are asked again of their
    /// networks, within each network's budget (a recheck waits for it), and the deleted ones leave. A network that
    /// cannot answer is logged with its sentence and asked again at the next run. `recheck` makes a run's recheck for
    /// the time it starts (which posts are due, which networks are asked).
    static func rechecks(_ recheck: @escaping @Sendable (Date) async throws -> Recheck, logger: Logger) -> HourlyService
    {
        HourlyService(name: "recheck", logger: logger) {
            for outcome in try await recheck(Date()).run() {
                if let stopped = outcome.stopped {
                    logger.warning(
                        "recheck: a network stopped answering; its other posts wait for the next run",
                        metadata: ["source": "\(outcome.title)", "checked": "\(outcome.checked)", "why": "\(stopped)"])
                } else if outcome.checked > 0 {
                    logger.info(
                        "recheck: posts asked again of their network",
                        metadata: [
                            "source": "\(outcome.title)", "checked": "\(outcome.checked)", "deleted": "\(outcome.gone)",
                        ])
                }
            }
        }
    }
}
