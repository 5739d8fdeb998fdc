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

    /// Days from `90d`, `12w`, `1y` (a number and its unit; a bare number is days): how long a term's posts are
    /// kept (`track --keep`), 1 day to 100 years.
    public static func keepDays(_ text: String) throws(TrackingIntervalError) -> Int {
        let trimmed = text.filter { !$0.isWhitespace }.lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let scale: Int? =
            switch trimmed.dropFirst(digits.count) {
            case "", "d", "day", "days": 1
            case "w", "week", "weeks": 7
            case "y", "year", "years": 365
            default: nil
            }
        guard let number = Int(digits.prefix(6)), digits.count <= 6, let scale, number >= 1,
            number * scale <= 36_500
        else { throw .badKeepingTime(text) }
        return number * scale
    }

    /// "keeps its posts 90 days" (", and their counts" when they go with them), or nil when the term has no keeping
    /// time of its own.
    public var keepText: String? {
        keepDays.map { "keeps its posts \($0) \($0 == 1 ? "day" : "days")\(forgetsCounts ? ", and their counts" : "")" }
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
    case badKeepingTime(String)

    public var description: String {
        switch self {
        case .badInterval(let text):
            "“\(text.excerpt())” is not an interval: write a number and s, m or h, such as 30s, 5m or 1h."
        case .intervalTooShort(let text):
            """
            “\(text.excerpt())” is too often: a term is fetched at most every \
            \(TrackingPlan.shortestInterval) seconds.
            """
        case .badKeepingTime(let text):
            "“\(text.excerpt())” is not a keeping time: write a number of days, weeks or years, such as 90d, 12w or 1y."
        }
    }
}
