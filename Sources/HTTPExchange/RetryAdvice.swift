#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When to try a rate-limited API again, in words every source's errors share.
package enum RetryAdvice {
    /// "try again after 14:05:09 UTC (in 12 minutes)".
    package static func sentence(until date: Date?) -> String {
        guard let date else { return "try again in 15 minutes" }
        let minutes = Int((date.timeIntervalSinceNow / 60).rounded(.up))
        let wait = minutes <= 1 ? "in a minute" : "in \(minutes) minutes"
        return "try again after \(time(date)) (\(wait))"
    }

    /// "14:05:09 UTC".
    package static func time(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded()) % 86_400
        let fields = [seconds / 3600, seconds / 60 % 60, seconds % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
        return fields.joined(separator: ":") + " UTC"
    }
}
