import Posts

/// A length of time as people write it for `--since 7d`, `--expires 90d` and `?since=24h`: a whole number and a unit,
/// `m`, `h` or `d`.
public enum Period {
    public static func seconds(_ text: String) throws(PeriodError) -> Int {
        let trimmed = text.filter { !$0.isWhitespace }.lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let scale: Int? =
            switch trimmed.dropFirst(digits.count) {
            case "m", "min", "mins": 60
            case "h", "hour", "hours": 3600
            case "d", "day", "days": 86_400
            default: nil
            }
        guard let number = Int(digits), number > 0, let scale, number <= 36_500 * 86_400 / scale else {
            throw PeriodError(text: text)
        }
        return number * scale
    }
}

/// A period that is not one, in one sentence.
public struct PeriodError: ExplainedError, Equatable {
    let text: String

    public var description: String {
        "“\(text)” is not a length of time: write a whole number and m, h or d, such as 30m, 24h or 7d."
    }
}
