import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Posts taken back out of the store, and what rechecks need to find them (see `RemovalStore`).
extension AppDatabase {
    /// The posts removed from every term that counted them, their counts, trends and co-mentions down by exactly what
    /// each added, a transaction per batch: a process killed meanwhile leaves each batch all counted or none.
    public func removePosts(_ keys: [PostKey]) async throws -> RemovedPosts {
        try await store.remove(keys, from: nil, inTransactionsOf: removalBatch)
    }

    /// The posts taken out of one term's counts, trends and co-mentions only (a tracked term's keeping time with
    /// `--forget-counts`); a post no other term counts is deleted, one another term counts stays as it is there.
    public func removePosts(_ keys: [PostKey], fromTerm term: String) async throws -> RemovedPosts {
        try await store.remove(keys, from: SearchTermKey(term).key, inTransactionsOf: removalBatch)
    }

    /// The same, `size` posts in a transaction (the benchmarks and the kill test: all of them in one).
    package func removePosts(_ keys: [PostKey], inTransactionsOf size: Int) async throws -> RemovedPosts {
        try await store.remove(keys, from: nil, inTransactionsOf: size)
    }

    /// Up to `limit` kept posts of `network` after `reference`, in the order they were stored, not found published by
    /// a recheck since `checkedBefore` (milliseconds since 1970).
    public func recheckCandidates(
        _ network: Network, after reference: Int64, checkedBefore: Int64, limit: Int
    ) async throws -> [KeptPost] {
        try await store.recheckCandidates(network, after: reference, checkedBefore: checkedBefore, limit: limit)
    }

    /// Up to `limit` kept posts after `reference`, in the order they were stored, made before `createdBefore`
    /// (milliseconds since 1970); without `reducedToo`, only those still whole (an hourly run would otherwise read
    /// every post it had reduced before).
    public func retentionCandidates(
        createdBefore: Int64, after reference: Int64, limit: Int, reducedToo: Bool = true
    ) async throws -> [KeptPost] {
        try await store.retentionCandidates(
            createdBefore: createdBefore, after: reference, limit: limit, reducedToo: reducedToo)
    }

    /// Up to `limit` whole posts of the tracked term `term` past its keeping time `keepDays` at `now`, after
    /// `reference` in the order they were stored, that no other term keeps (a term that also counted one and has no
    /// keeping time, or one not yet passed, keeps it).
    /// With `forgetting`, every post of the term past its keeping time, reduced or not, whatever other terms keep:
    /// they leave this term's counts (`removePosts(_:fromTerm:)`).
    public func termRetentionCandidates(
        term: String, keepDays: Int, now: Date, after reference: Int64, limit: Int, forgetting: Bool = false
    ) async throws -> [KeptPost] {
        let before = now.addingTimeInterval(-Double(keepDays) * 86_400).millisecondsSince1970
        return try await store.termRetentionCandidates(
            SearchTermKey(term).key, createdBefore: before, now: now.millisecondsSince1970, after: reference,
            limit: limit, forgetting: forgetting)
    }

    /// The posts past the keeping time reduced to what keeps them counted — their key, time and what they named;
    /// their text, media, author and address go —, their counts kept as aggregates. How many were whole.
    public func reducePosts(_ keys: [PostKey], at time: Int64) async throws -> Int {
        try await store.reduce(keys, at: time)
    }

    /// The posts were found still published at `time` (milliseconds since 1970).
    public func markChecked(_ keys: [PostKey], at time: Int64) async throws {
        try await store.markChecked(keys, at: time)
    }

    /// The kept Bluesky posts of the account `did`.
    public func storedKeys(ofAccount did: String) async throws -> [PostKey] {
        try await store.storedKeys(ofAccount: did)
    }

    /// The kept posts whose author has `handle` (with or without its `@`, case-insensitively).
    public func storedKeys(byAuthor handle: String) async throws -> [PostKey] {
        try await store.storedKeys(byAuthor: handle.hasPrefix("@") ? String(handle.dropFirst()) : handle)
    }

    /// How far the term's posts have been rechecked; nil when the term is not in Recents.
    public func recheckState(term: String) async throws -> RecheckState? {
        try await store.recheckState(SearchTermKey(term))
    }
}
