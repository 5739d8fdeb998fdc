import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The terms collected over time, without anyone searching: what `track`, `untrack` and `tracking` change and show,
/// and what the tracker claims, counts and keeps. Durable in the store: the schedule, each source's position and its
/// last failure survive a restart or a kill, and counting stays exactly once per post and term.
public struct TrackedTerms: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Tracks `term` for `holder` (adding it to their Recents if it is not there); throws `TrackingError.tooMany` past
    /// the limit, and a `QueryError` for a term that is only spaces.
    @discardableResult
    public func track(
        _ term: String, _ plan: TrackingPlan, by holder: Holder = .owner, now: Date = Date()
    ) async throws -> TrackedTerm {
        let term = try SearchTermKey(term)
        try await database.store.track(term, plan, by: holder, now: now.millisecondsSince1970)
        guard let tracked = try await database.store.trackedTerms(term.key).first else { throw TrackingError.tooMany }
        return tracked
    }

    /// Stops tracking `term`; false if it was not tracked. A fetch under way ends with the page it is counting.
    public func untrack(_ term: String) async throws -> Bool {
        try await database.store.untrack(try SearchTermKey(term).key)
    }

    /// Every tracked term, in Recents' order.
    public func all() async throws -> [TrackedTerm] {
        try await database.store.trackedTerms(nil)
    }

    /// The term if it is tracked.
    public func term(_ term: String) async throws -> TrackedTerm? {
        try await database.store.trackedTerms(try SearchTermKey(term).key).first
    }

    /// Takes at most `limit` terms due at `now` (of `only` these terms, when given) for `lease`: no other server
    /// fetches them meanwhile.
    public func claimDue(
        now: Date = Date(), lease: Duration, limit: Int, only: [String]? = nil
    ) async throws
        -> [TrackedTerm]
    {
        let until = now.addingTimeInterval(lease.seconds)
        let keys = try only?.map { try SearchTermKey($0).key }
        return try await database.store.claimDue(
            now: now.millisecondsSince1970, leaseUntil: until.millisecondsSince1970, limit: limit, keys: keys)
    }

    /// Counts a page fetched for the tracked term at `position` (its posts once each, as a search's) and keeps where
    /// the source stands, in one transaction; false once the term is no longer tracked.
    public func collect(
        _ term: TrackedTerm, page: MergedPage?, at position: MergedPosition, source: TrackedSource
    ) async throws -> Bool {
        let rules = try await database.consentRules()
        let prepared = page.map { FoundPage(page: $0, position: position).prepared(rules) }
        return try await database.store.collect(try SearchTermKey(term.term), prepared, source)
    }

    /// Ends the term's run: due next at `due`, with `backfill` older pages left.
    public func finish(_ term: TrackedTerm, due: Date, fetched: Date = Date(), backfill: Int) async throws {
        try await database.store.finishRun(
            term.key, due: due.millisecondsSince1970, fetched: fetched.millisecondsSince1970, backfill: backfill)
    }
}
