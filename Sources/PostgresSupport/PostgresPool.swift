import CoreMetrics
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Posts
import ServiceLifecycle
import Synchronization

/// One PostgreSQL database as Smashtag uses it: a pool of connections (postgres-nio's `PostgresClient`), open from
/// `connect` until `close`, that the app store and the corpus share; every read and every transaction within a
/// deadline, and an unreachable or lost database said in one sentence (`StoreUnavailable`).
package final class PostgresPool: Sendable {
    package let client: PostgresClient
    package let url: PostgresURL
    package let logger: Logger
    /// While the database is away, requests are told so at once.
    private let outage = Outage()
    private let pool: Task<Void, Never>

    /// How long a request waits for the database before it is answered with `StoreUnavailable` (5 s, or
    /// `SMASHTAG_DATABASE_DEADLINE` seconds: the Swift suites give a loaded machine a minute); within a few seconds of
    /// an outage, how long it waits for a sign that the database is back.
    package static let deadline: Duration =
        ProcessInfo.processInfo.environment["SMASHTAG_DATABASE_DEADLINE"].flatMap(Double.init).flatMap {
            $0 > 0 ? .milliseconds(Int64($0 * 1000)) : nil
        } ?? .seconds(5)
    static let outageDeadline = Duration.milliseconds(300)
    /// How long a write that no page waits for may take: a batch of an import, the demo or the live index, which a
    /// busy database may hold for longer than a page would wait, and which gives up only if it is away.
    package static var batchDeadline: Duration { deadline * 12 }
    static let outageMemory = Duration.seconds(3)
    /// A transaction that lost a race (a deadlock, a row deleted under it) runs again, this many times at most.
    static let attempts = 4

    /// Connects once, or throws one sentence saying why the database cannot be reached; runs `migrations` on that
    /// connection; then opens the pool.
    package static func connect(
        to url: PostgresURL, connections: Int = 32, migrations: [PostgresMigrator], logger: Logger
    ) async throws -> PostgresPool {
        try await migrate(url, migrations, logger: logger)
        return PostgresPool(url: url, connections: connections, logger: logger)
    }

    private init(url: PostgresURL, connections: Int, logger: Logger) {
        let client = PostgresClient(
            configuration: url.clientConfiguration(connections: connections), backgroundLogger: logger)
        (self.client, self.url, self.logger) = (client, url, logger)
        pool = Task { await client.run() }
    }

    /// One connection, made and closed: its error names the cause (refused, unknown host, no such database, bad
    /// password), which a pool still retrying would not.
    package static func migrate(_ url: PostgresURL, _ migrations: [PostgresMigrator], logger: Logger) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: url.connectionConfiguration, id: 0,
                logger: logger)
        } catch {
            throw StoreUnavailable(url: url, cause: error)
        }
        do {
            try await PostgresSupport.withDeadline(batchDeadline) {
                for migrator in migrations { try await migrator.run(on: connection, logger: logger) }
            }
            try await connection.close()
        } catch {
            try? await connection.close()
            throw StoreUnavailable.ifLost(error)
        }
    }

    /// Closes the pool: what it was doing fails, and nothing more can be asked.
    package func close() {
        pool.cancel()
    }

    /// Keeps the pool open while the application runs and closes it when the application shuts down.
    package var service: some Service { PoolService(database: self) }

    /// A read, within the deadline.
    package func read<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        try await withDeadline { [client] in
            let asked = ContinuousClock.now
            return try await client.withConnection { connection in
                PoolWait.record(since: asked)
                return try await work(connection)
            }
        }
    }

    /// One transaction, within the deadline (`limit` when given), run again when it lost a race with another writer.
    package func transaction<T: Sendable>(
        limit: Duration? = nil, _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withDeadline(limit) { [client, logger] in
            try await Self.retryingRaces {
                let asked = ContinuousClock.now
                return try await client.withTransaction(logger: logger) { connection in
                    PoolWait.record(since: asked)
                    return try await work(connection)
                }
            }
        }
    }

    /// One statement as a transaction of its own (no `BEGIN` and `COMMIT`: two round trips fewer), its rows, within
    /// the deadline; run again when it lost a race with another writer.
    package func statement(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await withDeadline { [client] in
            try await Self.retryingRaces {
                let asked = ContinuousClock.now
                return try await client.withConnection { connection in
                    PoolWait.record(since: asked)
                    return try await connection.rows(query)
                }
            }
        }
    }

    /// `work`, run again (up to `attempts` in all) while it fails by losing a race with another writer.
    private static func retryingRaces<T>(_ work: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await work()
            } catch  where attempt < attempts && isRace(error) {
                attempt += 1
            }
        }
    }

    private static func isRace(_ error: any Error) -> Bool {
        (error as? PostgresTransactionError)?.isRace ?? (error as? PSQLError)?.isRace ?? false
    }

    /// `work`, or `StoreUnavailable` when the database does not answer in time or the connection is lost.
    package func withDeadline<T: Sendable>(
        _ limit: Duration? = nil, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let deadline = outage.isRecent ? Self.outageDeadline : (limit ?? Self.deadline)
        do {
            let value = try await PostgresSupport.withDeadline(deadline, work)
            outage.ended()
            return value
        } catch {
            let error = StoreUnavailable.ifLost((error as? PostgresTransactionError)?.cause ?? error)
            if error is StoreUnavailable { outage.noted() }
            throw error
        }
    }
}

/// The pool as a service of the application: open until the application shuts down (or the task is cancelled).
private struct PoolService: Service {
    let database: PostgresPool

    func run() async throws {
        try? await gracefulShutdown()
        database.close()
    }
}

/// When the database last failed to answer.
private final class Outage: Sendable {
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    /// The database failed within the last few seconds.
    var isRecent: Bool {
        last.withLock { $0.map { ContinuousClock.now - $0 < PostgresPool.outageMemory } ?? false }
    }

    func noted() { last.withLock { $0 = .now } }

    func ended() { last.withLock { $0 = nil } }
}

extension PostgresTransactionError {
    /// The error that ended the transaction.
    package var cause: any Error { closureError ?? beginError ?? commitError ?? self }

    /// Lost a race that running again resolves (see `PSQLError.isRace`).
    var isRace: Bool { ((closureError ?? commitError) as? PSQLError)?.isRace ?? false }
}

extension PSQLError {
    /// Lost a race that running again resolves: a deadlock, a serialization failure, or a row another transaction
    /// deleted or added meanwhile (a new term's row another server added first, a tracked term untracked meanwhile).
    var isRace: Bool {
        guard let state = sqlState else { return false }
        return ["40001", "40P01", "23503", "23505"].contains(state)
    }

    /// The error's SQLSTATE, as the server gave it.
    package var sqlState: String? { serverInfo?[.sqlState] }
}

/// The database could not be reached or did not answer: a page says so with a 503, the CLI with one sentence.
public struct StoreUnavailable: LocalOutage {
    public let description: String

    static let timedOut = StoreUnavailable(description: "The database did not answer in time.")

    package init(description: String) {
        self.description = description
    }

    init(url: PostgresURL, cause: any Error) {
        description = "Cannot reach the \(url): \(Self.reason(cause))."
    }

    /// A lost connection or a server shutting down become `StoreUnavailable`; any other error stays as it is.
    package static func ifLost(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else { return error }
        let lost: [PSQLError.Code] = [
            .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
        ]
        let state = error.sqlState ?? ""
        guard lost.contains(error.code) || state.hasPrefix("08") || state.hasPrefix("57P") else { return error }
        return StoreUnavailable(description: "The connection to the database was lost: \(reason(error)).")
    }

    /// What went wrong, in the server's or the system's words.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if let connection = error.underlying as? NIOConnectionError { return connection.reason }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}

extension NIOConnectionError {
    /// Why no connection was made, as the system says it ("connection refused"), or that the host is unknown.
    var reason: String {
        if let error = connectionErrors.first?.error as? IOError {
            return String(cString: strerror(error.errnoCode)).lowercased()
        }
        if let error = connectionErrors.first?.error { return "\(error)" }
        return "the host \(host) is not known"
    }
}

extension Logger {
    /// Queries are not logged one by one (the pool logs its connections through the database's logger).
    package static let queries = Logger(label: "smashtag.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// How long work waited for the database (a pooled PostgreSQL connection, SQLite's one writer), for `/metrics`: the
/// sign that the pool is too small for the load, or the database too slow for it. The app store's SQLite writer
/// records here too, so both databases give the one series.
package enum PoolWait {
    private static let timers = MetricHandles(labels: ["database"]) {
        Timer(label: "smashtag_database_pool_wait_seconds", dimensions: $0)
    }

    package static func record(since asked: ContinuousClock.Instant, database: String = "postgresql") {
        timers[database].recordSeconds((ContinuousClock.now - asked).seconds)
    }
}
