import Posts

/// Tracked terms as the store keeps them: each term's plan, its lease, and where each of its sources stands.
protocol TrackingStore: Sendable {
    /// Tracks the term with `plan` for `holder` (who tracked it), adding it to their Recents when it is not there (at
    /// the top, as a search would); a term tracked already takes the new plan and is due at once, and keeps who
    /// tracked it first. Throws `TrackingError.tooMany` past the limit.
    func track(_ term: SearchTermKey, _ plan: TrackingPlan, by holder: Holder, now: Int64) async throws
    /// Stops tracking the term (it stays in the Recents that hold it, and goes when none does); false if it was not
    /// tracked.
    func untrack(_ key: String) async throws -> Bool
    /// Every tracked term, or only the one with `key`.
    func trackedTerms(_ key: String?) async throws -> [TrackedTerm]
    /// Takes at most `limit` terms due at `now` (only those with `keys`, when given) for this server until
    /// `leaseUntil`: no other server fetches them meanwhile, and when this one stops, the lease runs out and another
    /// may.
    func claimDue(now: Int64, leaseUntil: Int64, limit: Int, keys: [String]?) async throws -> [TrackedTerm]
    /// Counts a page the tracker fetched (if any) and keeps where the source stands, in one transaction; false when
    /// the term is no longer tracked (the page is counted all the same while the term is in Recents).
    func collect(_ term: SearchTermKey, _ page: PreparedPage?, _ source: TrackedSource) async throws -> Bool
    /// Ends a run: when the term is due next, the backfill left, the lease released.
    func finishRun(_ key: String, due: Int64, fetched: Int64, backfill: Int) async throws
}
