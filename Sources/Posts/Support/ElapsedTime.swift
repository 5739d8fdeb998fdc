#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A stretch of time as people say it.
public enum ElapsedTime {
    /// "40 s", "3 min", "2 h".
    public static func span(_ seconds: Double) -> String {
        if seconds < 90 { return "\(max(Int(seconds.rounded()), 1)) s" }
        if seconds < 90 * 60 { return "\(Int((seconds / 60).rounded())) min" }
        return "\(Int((seconds / 3600).rounded())) h"
    }

    /// "just now", "40 s ago", "2 min ago".
    public static func ago(_ date: Date, now: Date = Date()) -> String {
        let seconds = now.timeIntervalSince(date)
        return seconds < 5 ? "just now" : span(seconds) + " ago"
    }
}
