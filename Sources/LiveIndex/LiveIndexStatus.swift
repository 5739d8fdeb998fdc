import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A running live index's latest progress, for the pages to show beside the posts it brings.
public final class LiveIndexStatus: Sendable {
    private let progress = Mutex<IngestProgress?>(nil)
    private let following = Mutex(false)

    public init() {}

    /// Another server sharing the database runs the index (this one takes over if it stops); `lead` when this one
    /// is elected.
    public func follow() { following.withLock { $0 = true } }
    public func lead() { following.withLock { $0 = false } }
    public var isFollowing: Bool { following.withLock { $0 } }

    public func update(_ new: IngestProgress) {
        progress.withLock { $0 = new }
    }

    /// Nil until the first commit.
    public var current: IngestProgress? { progress.withLock { $0 } }
}

extension IngestProgress {
    /// How far the last commit is behind real time, in seconds (the cursor is when Jetstream saw the event).
    public func lag(at now: Date = Date()) -> Double? {
        cursor.map { max(0, now.timeIntervalSince1970 - Double($0) / 1_000_000) }
    }
}
