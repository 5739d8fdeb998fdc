import Logging
import PostgresSupport
import Posts
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The app's own database (not the corpus): recents, search sessions, the popularity counts and the posts they
/// were counted from — in a SQLite file of the data directory (the default) or in PostgreSQL, shared by several
/// servers.
public struct AppDatabase: Sendable {
    let store: any Store
    /// The consent rules read last (`consentRules()`).
    let consent = ConsentCache()

    /// Opens (creating if needed) the SQLite database at `path`, which the server and the CLI share.
    public static func open(at path: String) async throws -> AppDatabase {
        AppDatabase(store: try await SQLiteStore.open(at: path))
    }

    public static func inMemory() throws -> AppDatabase {
        AppDatabase(store: try SQLiteStore.inMemory())
    }

    /// SQLite with `orphanAllowance` posts of pushed-out terms left waiting at most (0: deleted after each search).
    package static func open(at path: String, orphanAllowance: Int) async throws -> AppDatabase {
        AppDatabase(store: try await SQLiteStore.open(at: path, orphanAllowance: orphanAllowance))
    }

    package static func inMemory(orphanAllowance: Int) throws -> AppDatabase {
        AppDatabase(store: try SQLiteStore.inMemory(orphanAllowance: orphanAllowance))
    }

    /// Connects to PostgreSQL and migrates it (under an advisory lock, so servers starting together do not race);
    /// throws `StoreUnavailable`, one sentence, when it cannot be reached. Its pool answers once `service` runs: as a
    /// service of the application, or beside a command in `withConnections`.
    public static func connect(to url: PostgresURL, logger: Logger) async throws -> AppDatabase {
        AppDatabase(store: try await PostgresStore.connect(to: url, logger: logger))
    }

    /// PostgreSQL with `orphanAllowance` posts of pushed-out terms left waiting at most (0: deleted after each search).
    package static func connect(to url: PostgresURL, orphanAllowance: Int, logger: Logger) async throws -> AppDatabase {
        AppDatabase(store: try await PostgresStore.connect(to: url, orphanAllowance: orphanAllowance, logger: logger))
    }

    /// The database a command names: PostgreSQL when `url` is given, else the SQLite file at `path`.
    public static func open(url: PostgresURL?, orFileAt path: String, logger: Logger) async throws -> AppDatabase {
        guard let url else { return try await open(at: path) }
        return try await connect(to: url, logger: logger)
    }

    /// What keeps the database's connections open while the app runs: PostgreSQL's pool, a service of the
    /// application closed when it shuts down; nil for SQLite, which needs none.
    public var service: (any Service)? { store.service }

    /// `body` with the connections open (`service` running beside it), then closed: for a command that uses the
    /// store and ends.
    public func withConnections<T: Sendable>(_ body: (AppDatabase) async throws -> T) async throws -> T {
        guard let service else { return try await body(self) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            defer { group.cancelAll() }
            return try await body(self)
        }
    }

    /// Whether the store can serve: reachable (else this throws its outage in one sentence) and migrated to this
    /// build's schema.
    public func isMigrated() async throws -> Bool {
        try await store.isMigrated()
    }

    /// Ends the store's watchers (PostgreSQL's listening connection); nothing to do for SQLite.
    public func close() async {
        await store.close()
    }

    /// Runs `work` (the demo tweeter, the live index) on one server only among those sharing the store; another
    /// takes over when that one stops. Returns when `work` finishes.
    public func whileElected(_ role: ElectedRole, _ work: @escaping @Sendable () async throws -> Void) async throws {
        try await store.whileElected(role, work)
    }

    /// A signal now, then whenever the term's counts, tracking or place in Recents may have changed — written by this
    /// process, another on the same file, or another server on the same database — until the caller stops listening.
    public func changes(of term: SearchTermKey) -> AsyncStream<Void> {
        store.changes(of: term.key)
    }
}
