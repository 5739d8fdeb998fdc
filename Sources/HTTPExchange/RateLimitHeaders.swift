import NIOHTTP1
import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The rate-limit headers the networks send, read one way: X's `x-rate-limit-limit|remaining|reset` (reset in epoch
/// seconds), Mastodon's `X-RateLimit-*` (reset an ISO-8601 time) and Bluesky's `RateLimit-*` (reset in epoch
/// seconds), with `Retry-After` (seconds) as a fallback for when to try again.
package enum RateLimitHeaders {
    private static let families = ["x-rate-limit-", "x-ratelimit-", "ratelimit-"]

    /// The window the headers describe; nil when they describe none.
    package static func window(_ headers: HTTPHeaders, now: Date = Date()) -> RateLimitBudget.Window? {
        for family in families {
            guard let limit = headers.first(name: family + "limit").flatMap(leadingInteger),
                let remaining = headers.first(name: family + "remaining").flatMap(leadingInteger)
            else { continue }
            let reset = headers.first(name: family + "reset").flatMap(time) ?? now.addingTimeInterval(60)
            return RateLimitBudget.Window(limit: limit, remaining: remaining, reset: reset)
        }
        return nil
    }

    /// When a rate-limited answer says to try again; nil when it does not say.
    package static func reset(_ headers: HTTPHeaders, now: Date = Date()) -> Date? {
        for family in families {
            if let reset = headers.first(name: family + "reset").flatMap(time) { return reset }
        }
        return headers.first(name: "retry-after").flatMap(Double.init).map { now.addingTimeInterval($0) }
    }

    /// What an answer tells the budget: its window, and for a 429 that nothing goes until the reset (a minute when
    /// the answer does not say).
    package static func update(_ budget: RateLimitBudget, status: HTTPResponseStatus, headers: HTTPHeaders) {
        let now = Date()
        if let window = window(headers, now: now) { budget.record(window) }
        if status == .tooManyRequests { budget.block(until: reset(headers, now: now) ?? now.addingTimeInterval(60)) }
    }

    /// Epoch seconds, or an ISO-8601 time.
    private static func time(_ text: String) -> Date? {
        if let seconds = Double(text.trimmingSpaces) { return Date(timeIntervalSince1970: seconds) }
        return WireDate.parseISO8601(text.trimmingSpaces)
    }

    /// `300` of `300;w=300` (Bluesky's policy form).
    private static func leadingInteger(_ text: String) -> Int? {
        Int(text.trimmingSpaces.prefix { $0.isNumber })
    }
}

extension String {
    fileprivate var trimmingSpaces: String { split(separator: " ").joined() }
}
