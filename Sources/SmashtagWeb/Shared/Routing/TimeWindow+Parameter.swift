import AppStore
import HTTPTypes

extension TimeWindow {
    /// `window=…` of a request: all time when absent, a 400 with a sentence when unknown.
    static func parameter(_ parameters: QueryString) throws -> TimeWindow {
        guard let text = parameters["window"], !text.isEmpty else { return .all }
        guard let window = TimeWindow(rawValue: text) else {
            throw RefusedRequest(.badRequest, "window must be 24h, 7d, 30d or all.")
        }
        return window
    }
}
