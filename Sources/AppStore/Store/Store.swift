import PostgresSupport
import Posts
import SQLiteSupport
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the app keeps its state: Recents with each term's search session, the posts fetched, the popularity counts
/// and their hourly trends, the co-mention networks, the tracked terms. Each feature declares what it stores in a
/// protocol in its own folder, beside its two implementations: `SQLiteStore` (a file in the data directory, or
/// memory) and `PostgresStore` (one database shared by several servers). The same store tests run against both.
/// Every write is one transaction; counting is exactly once per (term, post) however many writers share the store.
typealias Store = StoreCore & RecentsStore & SessionStore & PopularityStore & NetworkStore & StoredPostStore
    & DatasetStore & TrackingStore & OriginsStore & PeopleStore & AuditStore & RemovalStore & ConsentStore

/// What every feature's store shares: the database's generation, its change signals, elections among the servers
/// sharing it, and its connections.
protocol StoreCore: Sendable {
    /// Changes with every commit, this process's or another's; nil when the store cannot tell without a round trip
    /// (PostgreSQL, which other servers write), and then no search is known unchanged from memory.
    func generation() throws -> StoreGeneration?

    /// A signal now, then whenever the term's counts or Recents may have changed, written by any process, until the
    /// subscriber stops listening. A spurious signal costs a read; a missed one would leave a live page stale.
    func changes(of key: String) -> AsyncStream<Void>

    /// Runs `work` on one server only among those sharing the store (SQLite has one); returns when it finishes.
    func whileElected(_ role: ElectedRole, _ work: @escaping @Sendable () async throws -> Void) async throws

    /// What keeps the store's connections open while the app runs (PostgreSQL's pool); nil for a store that needs
    /// none (SQLite).
    var service: (any Service)? { get }

    /// Ends the store's watchers.
    func close() async

    /// Whether the schema is this build's: every migration applied. Throws when the database cannot be reached.
    func isMigrated() async throws -> Bool
}

/// What a store's generation is: equal values mean nothing was committed in between.
typealias StoreGeneration = DatabaseGeneration.Value
