import PostgresSupport
import Posts
import SQLiteSupport
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the app keeps its state: Recents with each term's search session, the posts fetched, the
/// popularity counts and their hourly trends. Two implementations hold the same data the same way — `SQLiteStore`
/// (a file in the data directory, or memory) and `PostgresStore` (one database shared by several servers) — and the
/// same store tests run against both. Every write is one transaction; counting is exactly once per (term, post)
/// however many writers share the store.
protocol Store: Sendable {
    /// Changes with every commit, this process's or another's; nil when the store cannot tell without a round trip
    /// (PostgreSQL, which other servers write), and then no search is known unchanged from memory.
    func generation() throws -> StoreGeneration?

    /// The term's row in Recents and which of `keys` it counted already; nil when it is not in Recents.
    func recordedTerm(_ key: String, counting keys: Set<PostKey>) async throws -> RecordedTerm?
    /// Moves the term to the top of Recents with the page's follow-on requests and counts the page's posts, in one
    /// transaction — unless that would change nothing: then nothing is written and the term is returned settled
    /// (with the generation read before it, when the store has one). A term pushed out goes with its counts; the
    /// posts no other term counted go in a later batch (`OrphanPosts`, `PostgresOrphans`).
    func record(_ term: SearchTermKey, _ page: PreparedPage) async throws -> SettledTerm?
    /// Counts a feed poll's posts under the term if it is still in Recents, without moving it.
    func countPoll(_ term: SearchTermKey, _ page: PreparedPage) async throws
    /// The term's session's follow-on requests; nil for a term without one.
    func cursors(of key: String) async throws -> SessionCursors?

    /// Newest first.
    func recentTerms() async throws -> [String]
    /// Removes the term with its counts and the posts no other term counted; false if it was not there.
    func deleteRecent(_ term: SearchTermKey) async throws -> Bool

    /// The term's mentions counted more than once in the window ending at `now`, with each row's partners.
    func popularity(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityTable
    /// The table and its sparklines, read together.
    func overview(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityOverview
    /// The term's co-mention network; nil when the term is not in Recents.
    func network(_ term: SearchTermKey, _ options: NetworkOptions, at now: Date) async throws -> MentionNetwork?
    func series(_ term: SearchTermKey, mention: String, bucket: TrendBucket?) async throws -> TrendSeries
    func sparklines(_ term: SearchTermKey, buckets: Int) async throws -> Sparklines

    func storedPost(_ key: PostKey) async throws -> Post?
    /// The posts counted under the term from `newest` down to `oldest` (milliseconds since 1970), newest first.
    func storedPosts(_ term: SearchTermKey, newest: Int64, oldest: Int64) async throws -> [Post]
    /// By network then id (for tests and diagnostics).
    func storedPostIDs() async throws -> [String]
    /// A batch of the posts counted under the term in the read's window, after the store's reference `after`, in
    /// the order of the references; nil when the term is not in Recents.
    func countedPosts(_ read: CountedPostRead, after reference: Int64) async throws -> CountedPostBatch?

    /// A signal now, then whenever the term's counts or Recents may have changed, written by any process, until the
    /// subscriber stops listening. A spurious signal costs a read; a missed one would leave a live page stale.
    func changes(of key: String) -> AsyncStream<Void>

    /// Runs `work` on one server only among those sharing the store (SQLite has one); returns when it finishes.
    func whileElected(_ role: ElectedRole, _ work: @escaping @Sendable () async throws -> Void) async throws

    /// Tracks the term with `plan`, adding it to Recents when it is not there (at the top, as a search would); a term
    /// tracked already takes the new plan and is due at once. Throws `TrackingError.tooMany` past the limit.
    func track(_ term: SearchTermKey, _ plan: TrackingPlan, now: Int64) async throws
    /// Stops tracking the term (it stays in Recents); false if it was not tracked.
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

    /// What keeps the store's connections open while the app runs (PostgreSQL's pool); nil for a store that needs
    /// none (SQLite).
    var service: (any Service)? { get }

    /// Ends the store's watchers.
    func close() async
}

/// What a store's generation is: equal values mean nothing was committed in between.
typealias StoreGeneration = DatabaseGeneration.Value

/// A term that a search left unchanged, with the generation it was read at.
struct SettledTerm: Sendable {
    let term: RecordedTerm
    let generation: StoreGeneration
}

/// A term's row in Recents as the store holds it, and which posts of a page are already counted under it.
struct RecordedTerm: Sendable {
    let shown: String
    let isFirst: Bool
    let cursors: SessionCursors?
    let counted: Set<PostKey>

    /// Recording `term` with the page's cursors and counting its posts would leave the store as it is.
    func isUnchanged(by term: SearchTermKey, _ found: FoundPage) -> Bool {
        isFirst && shown == term.shown && cursors == found.cursors(saved: cursors) && found.keys.isSubset(of: counted)
    }
}

/// A post with what a store writes of it, made before the write (see `PreparedPage`). A class: the writer filters and
/// numbers a page's posts, and every copy of a struct retained each field of the post (1.5% of a server's samples).
final class StorablePost: Sendable {
    let post: Post
    let created: Int64
    let json: String

    init(_ post: Post) {
        (self.post, created, json) = (post, post.created.millisecondsSince1970, post.codableJSON)
    }

    /// A post as a store keeps it (`Post.codableJSON`), read by `Post(json:)`: twice as fast as `JSONDecoder`, and
    /// a dataset reads every post of a term.
    static func decode(_ json: String) throws -> Post {
        try Post(jsonText: json)
    }
}
