import GRDB
import GRDBSQLite
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Read-only connections that run a short read on the calling thread. A search of the corpus takes some 50 µs, less
/// than the three thread hops of GRDB's async read (to the queue that waits for a free reader, to that reader, back
/// to the cooperative pool): under a different search on every request the hops cost the server 7% of its requests/s.
/// `read` never stalls a cooperative thread for long: when every inline connection is busy it returns nil and the
/// caller reads the async way; a read that outlasts `budget` (SQLite's progress handler interrupts it) is run again
/// on a Dispatch thread on the same connection, whose page cache now holds what the first try read. On another
/// connection (the pool's readers, seldom used and so cold) the slowest searches read every page a second time from
/// the file: at 10,000,000 posts that tripled a sparse `AND`'s time.
package final class InlineReaders: Sendable {
    /// The longest a read holds the calling thread.
    package let budget: Duration
    private let idle: Mutex<[DatabaseQueue]>

    /// `count` connections to the database at `path`, which must exist: by default one per thread of the cooperative
    /// pool (a thread of it reads on one at a time), at most eight.
    package init(
        path: String, count: Int = min(ProcessInfo.processInfo.activeProcessorCount, 8),
        budget: Duration = .milliseconds(1)
    ) throws {
        idle = Mutex(try (0..<count).map { _ in try SQLiteFile.readOnlyConnection(at: path, label: "inline-read") })
        self.budget = budget
    }

    /// How a read's statements see the database.
    package enum Isolation: Sendable {
        /// One snapshot for all of them: a read transaction.
        case transaction
        /// Each its own (SQLite's autocommit): for statements that need no snapshot in common, without the two
        /// statements that begin and end a transaction.
        case eachStatement
    }

    /// `body` on this thread while it lasts under the budget, else again on a thread that may block; nil when no
    /// connection is free.
    package func read<T: Sendable>(
        isolation: Isolation = .transaction, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T? {
        switch try attempt(isolation, body) {
        case .read(let value): return value
        case .busy: return nil
        case .outlasted(let connection):
            defer { release(connection) }
            return try await SQLiteFile.offThePool { try Self.run(isolation, on: connection, body) }
        }
    }

    /// `body`: through `inline` when it has one (a file's store) and a connection is free, else in a read transaction
    /// on `pool`'s readers.
    package static func read<T: Sendable>(
        _ inline: InlineReaders?, else pool: any DatabaseReader, isolation: Isolation = .transaction,
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        if let inline, let value = try await inline.read(isolation: isolation, body) { return value }
        return try await pool.read(body)
    }

    private static func run<T>(
        _ isolation: Isolation, on connection: DatabaseQueue, _ body: (Database) throws -> T
    ) throws -> T {
        switch isolation {
        case .transaction: try connection.read(body)
        case .eachStatement: try connection.inDatabase(body)
        }
    }

    /// `body` on this thread within the budget. A connection whose read outlasted it is the caller's to release.
    func attempt<T>(_ isolation: Isolation = .transaction, _ body: (Database) throws -> T) throws -> InlineAttempt<T> {
        guard let connection = idle.withLock({ $0.popLast() }) else { return .busy }
        do {
            let value = try Self.run(isolation, on: connection) { db in
                try Self.read(db, within: Deadline(after: budget), body)
            }
            release(connection)
            return .read(value)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            return .outlasted(connection)
        } catch {
            release(connection)
            throw error
        }
    }

    func release(_ connection: DatabaseQueue) {
        idle.withLock { $0.append(connection) }
    }

    /// Every thousand instructions of SQLite's virtual machine (some tens of microseconds) the handler looks at the
    /// clock; past the deadline it makes the statement fail with `SQLITE_INTERRUPT`.
    private static func read<T>(_ db: Database, within deadline: Deadline, _ body: (Database) throws -> T) throws -> T {
        sqlite3_progress_handler(
            db.sqliteConnection, 1000,
            { context in
                guard let context else { return 0 }
                return Unmanaged<Deadline>.fromOpaque(context).takeUnretainedValue().hasPassed ? 1 : 0
            }, Unmanaged.passUnretained(deadline).toOpaque())
        defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
        return try withExtendedLifetime(deadline) { try body(db) }
    }
}

/// A moment on the monotonic clock, as the progress handler's context.
private final class Deadline: Sendable {
    private let instant: ContinuousClock.Instant

    init(after duration: Duration) {
        instant = .now + duration
    }

    var hasPassed: Bool { ContinuousClock.now > instant }
}

/// How a read on the calling thread went.
enum InlineAttempt<T> {
    case read(T)
    /// Every connection was in use.
    case busy
    /// Interrupted at the budget: the connection, its page cache holding what the read had read.
    case outlasted(DatabaseQueue)
}
