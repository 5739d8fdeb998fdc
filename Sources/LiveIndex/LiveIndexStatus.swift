import CoreMetrics
import Posts
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A running live index's latest progress, for the pages to show beside the posts it brings.
public final class LiveIndexStatus: Sendable {
    private let progress = Mutex<(latest: IngestProgress, at: ContinuousClock.Instant)?>(nil)
    private let following = Mutex(false)

    /// When the index started: the first commit's rate is over the time since.
    private let started = ContinuousClock.now

    public init() {}

    /// Another server sharing the database runs the index (this one takes over if it stops); `lead` when this one
    /// is elected.
    public func follow() { following.withLock { $0 = true } }
    public func lead() { following.withLock { $0 = false } }
    public var isFollowing: Bool { following.withLock { $0 } }

    /// The latest commit's progress; for `/metrics`, the posts it added and how fast they came since the one before.
    public func update(_ new: IngestProgress) {
        let now = ContinuousClock.now
        let previous = progress.withLock { progress in
            defer { progress = (new, now) }
            return progress
        }
        let added = max(0, new.posts - (previous?.latest.posts ?? 0))
        Counter(label: "smashtag_live_index_posts_total").increment(by: added)
        let since = previous?.at ?? started
        if now > since {
            Gauge(label: "smashtag_live_index_posts_per_second").record(Double(added) / (now - since).seconds)
        }
    }

    /// Nil until the first commit.
    public var current: IngestProgress? { progress.withLock { $0?.latest } }
}

extension IngestProgress {
    /// How far the last commit is behind real time, in seconds (the cursor is when Jetstream saw the event).
    public func lag(at now: Date = Date()) -> Double? {
        cursor.map { max(0, now.timeIntervalSince1970 - Double($0) / 1_000_000) }
    }
}
