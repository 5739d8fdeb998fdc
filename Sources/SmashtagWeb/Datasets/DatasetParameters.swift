import AppStore
import Exports
import Hummingbird

/// What a dataset download asks for: `term`, `window=24h|7d|30d|all`, `format=ndjson|csv` and `pseudonymise=1`. A
/// bad value is refused with a sentence naming it.
struct DatasetParameters: Sendable {
    let term: String
    let window: TimeWindow
    let format: DatasetFormat
    let pseudonymises: Bool

    init(_ parameters: QueryString) throws {
        guard let term = parameters.text("term") else {
            throw RefusedRequest(.badRequest, "Choose a term in Recents to take its posts away: ?term=…")
        }
        self.term = term
        window = try TimeWindow.parameter(parameters)
        format = try parameters.choice("format", default: DatasetFormat.ndjson, else: "format must be ndjson or csv.")
        switch parameters["pseudonymise"] {
        case nil, "", "0": pseudonymises = false
        case "1", "on": pseudonymises = true
        default: throw RefusedRequest(.badRequest, "pseudonymise must be 1 or left out.")
        }
    }

    /// The audit trail's note of it: `#swift · 7d · csv · pseudonymised`.
    func auditDetail(term shown: String) -> String {
        [shown, window.rawValue, format.rawValue, pseudonymises ? "pseudonymised" : "identified"].joined(
            separator: " · ")
    }

    /// The file's name: `posts-swift-7d.ndjson`, `posts-swift-all-pseudonymised.zip`.
    func fileName(term shown: String) -> String {
        DatasetName.of(shown, window: window) + (pseudonymises ? "-pseudonymised" : "")
            + (format == .ndjson ? ".ndjson" : ".zip")
    }
}
