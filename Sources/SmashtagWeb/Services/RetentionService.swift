import Logging
import SmashtagApp

extension HourlyService {
    /// `serve --keep-days`, and tracked terms' own keeping times: the posts older than the keeping time leave.
    static func retention(_ retention: Retention, logger: Logger) -> HourlyService {
        HourlyService(name: "retention", logger: logger) {
            let outcome = try await retention.run()
            guard outcome.reduced + outcome.removed + outcome.corpus + outcome.forgottenByTrackedTerms > 0 else {
                return
            }
            logger.info(
                "retention: posts past the keeping time left",
                metadata: [
                    "reduced": "\(outcome.reduced)", "removed": "\(outcome.removed)", "corpus": "\(outcome.corpus)",
                    "byTrackedTerms": "\(outcome.byTrackedTerms)",
                    "forgottenByTrackedTerms": "\(outcome.forgottenByTrackedTerms)",
                ])
        }
    }
}
