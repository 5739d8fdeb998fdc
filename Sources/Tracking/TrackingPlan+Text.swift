import AppStore
import Posts

/// A tracking plan as people write and read it: `--every 5m`, the forms' intervals, "every 5 min".
extension TrackingPlan {
    /// Seconds from `30s`, `5m`, `1h` (a number and its unit; a bare number is seconds), at least
    /// `shortestInterval`.
    public static func interval(_ text: String) throws(TrackingIntervalError) -> Int {
        let trimmed = text.filter { !$0.isWhitespace }.lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let unit = trimmed.dropFirst(digits.count)
        let scale: Int? =
            switch unit {
            case "", "s", "sec", "secs": 1
            case "m", "min", "mins": 60
            case "h", "hr", "hour", "hours": 3600
            default: nil
            }
        guard let number = Int(digits), let scale, number <= 7 * 86_400 / scale else {
            throw .badInterval(text)
        }
        guard number * scale >= shortestInterval else { throw .intervalTooShort(text) }
        return number * scale
    }

    /// "every 5 min", "every 30 s", "every 2 h".
    public var everyText: String {
        if every % 3600 == 0 { return "every \(every / 3600) h" }
        if every % 60 == 0 { return "every \(every / 60) min" }
        return "every \(every) s"
    }
}

/// An interval that cannot be read, or is too short.
public enum TrackingIntervalError: ExplainedError, Equatable {
    case badInterval(String)
    case intervalTooShort(String)

    public var description: String {
        switch self {
        case .badInterval(let text):
            "“\(text.excerpt())” is not an interval: write a number and s, m or h, such as 30s, 5m or 1h."
        case .intervalTooShort(let text):
            """
            “\(text.excerpt())” is too often: a term is fetched at most every \
            \(TrackingPlan.shortestInterval) seconds.
            """
        }
    }
}
