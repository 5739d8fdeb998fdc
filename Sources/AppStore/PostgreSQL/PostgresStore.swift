import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import PostgresSupport
import Posts
import ServiceLifecycle
import Synchronization

/// The app's store in PostgreSQL: one database that several `serve` processes share. A pool of connections
/// (postgres-nio's `PostgresClient`); every unit of work is one transaction, and exactly-once counting rests on the
/// tables' constraints (`INSERT … ON CONFLICT DO NOTHING RETURNING`), correct under READ COMMITTED however many
/// writers there are — no lock in Swift. Live pages hear of other servers' writes through `LISTEN`/`NOTIFY`.
struct PostgresStore: StoreCore {
    let pool: PostgresPool
    let notifications: ChangeSignals
    let orphans: PostgresOrphans

    var client: PostgresClient { pool.client }
    var logger: Logger { pool.logger }

    /// Connects once, or throws one sentence saying why the database cannot be reached; migrates the database on that
    /// connection; then opens the pool. Pushed-out terms' posts are deleted once more than `orphanAllowance` wait.
    static func connect(
        to url: PostgresURL, connections: Int = 32, orphanAllowance: Int = PostgresOrphans.defaultAllowance,
        logger: Logger
    ) async throws -> PostgresStore {
        let pool = try await PostgresPool.connect(
            to: url, connections: connections, migrations: [PostgresMigrations.migrator], logger: logger)
        return PostgresStore(
            pool: pool, notifications: PostgresChanges.signals(client: pool.client, logger: logger),
            orphans: PostgresOrphans(allowance: orphanAllowance))
    }

    /// The pool and the listening connection, open while the service runs and closed when it stops.
    var service: (any Service)? { PostgresConnections(pool: pool, notifications: notifications) }

    func generation() throws -> StoreGeneration? { nil }

    func changes(of key: String) -> AsyncStream<Void> {
        notifications.subscribe(to: key)
    }

    func close() async {
        notifications.stop()
    }

    func isMigrated() async throws -> Bool {
        try await read { connection in try await PostgresMigrations.migrator.isComplete(on: connection) }
    }

    /// A read, within the deadline.
    func read<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await pool.read(work)
    }

    /// One transaction, within the deadline, run again when it lost a race with another writer.
    func transaction<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        try await pool.transaction(work)
    }

    func whileElected(_ role: ElectedRole, _ work: @escaping @Sendable () async throws -> Void) async throws {
        try await pool.whileElected(role, work)
    }
}

extension AppDatabase {
    /// The PostgreSQL store's pool, for the benchmarks that compare designs on the same database; nil on SQLite.
    package var postgresClient: PostgresClient? { (store as? PostgresStore)?.client }
    /// The PostgreSQL database the store is in, which the corpus shares; nil on SQLite.
    package var postgres: PostgresPool? { (store as? PostgresStore)?.pool }
}

/// The PostgreSQL store's connections as a service of the application: the pool runs until the application shuts
/// down (or the task is cancelled), then live pages stop listening.
private struct PostgresConnections: Service {
    let pool: PostgresPool
    let notifications: ChangeSignals

    func run() async throws {
        try await pool.service.run()
        notifications.stop()
    }
}
