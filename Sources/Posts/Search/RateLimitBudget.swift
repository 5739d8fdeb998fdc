import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How much of a source's rate-limit window is left, as its network last said (`x-rate-limit-*` on X,
/// `X-RateLimit-*` on Mastodon, `RateLimit-*` on Bluesky), and until when a 429 stops it. People's searches spend it
/// freely; background work (the tracker) asks `allowsBackground` first, so it never spends the last fifth of a window
/// and sends nothing between a 429 and its reset — a person's search then still has requests to spend.
public final class RateLimitBudget: Sendable {
    /// A window as the network last described it.
    public struct Window: Sendable, Hashable {
        public let limit: Int
        public let remaining: Int
        public let reset: Date

        public init(limit: Int, remaining: Int, reset: Date) {
            (self.limit, self.remaining, self.reset) = (limit, remaining, reset)
        }
    }

    private struct State {
        var window: Window?
        var blockedUntil: Date?
    }

    /// The share of a window background work leaves unspent.
    public static let reserve = 0.2
    private let state = Mutex(State())

    public init() {}

    /// What the last answer's headers said.
    public func record(_ window: Window) {
        state.withLock { $0.window = window }
    }

    /// A 429: nothing more until `reset`.
    public func block(until reset: Date) {
        state.withLock { state in
            state.blockedUntil = max(state.blockedUntil ?? reset, reset)
            if let window = state.window {
                state.window = Window(limit: window.limit, remaining: 0, reset: max(window.reset, reset))
            }
        }
    }

    /// Whether background work may send a request now.
    public func allowsBackground(at now: Date = Date()) -> Bool {
        backgroundResumes(after: now) == nil
    }

    /// When background work may send again; nil when it may now. A window that has reset is taken to be full.
    public func backgroundResumes(after now: Date = Date()) -> Date? {
        state.withLock { state in
            if let blocked = state.blockedUntil, now < blocked { return blocked }
            guard let window = state.window, now < window.reset else { return nil }
            let floor = Int((Double(window.limit) * Self.reserve).rounded(.up))
            return window.remaining > floor ? nil : window.reset
        }
    }

    /// Until when a 429 stops every request, people's too; nil when none does now.
    public func blocked(at now: Date = Date()) -> Date? {
        state.withLock { state in state.blockedUntil.flatMap { now < $0 ? $0 : nil } }
    }

    /// The window as last known, for tests and diagnostics.
    public var window: Window? { state.withLock { $0.window } }
}
