import GRDB
import Synchronization

/// A value that changes whenever a database file may have changed, cheap enough to ask before every cached answer.
/// Other connections' commits — another process (`import`, the CLI) or another pool on the same file — show as a new
/// `PRAGMA data_version` on a read-only connection of its own: SQLite changes that number only for commits of
/// *other* connections, so this connection never writes. This process's commits through `writer` are counted as
/// they happen, which is all there is to see for a database in memory.
package final class DatabaseGeneration: Sendable {
    package struct Value: Hashable, Sendable {
        let commits: Int
        let dataVersion: Int

        package init(commits: Int, dataVersion: Int) {
            (self.commits, self.dataVersion) = (commits, dataVersion)
        }

        /// Both parts only ever grow: an older value never replaces a newer one.
        package func precedes(_ other: Value) -> Bool {
            self != other && commits <= other.commits && dataVersion <= other.dataVersion
        }
    }

    private let commits: CommitCounter
    private let watcher: DatabaseQueue?

    /// `path`: the database file; nil in memory.
    package init(writer: any DatabaseWriter, path: String?) throws {
        commits = CommitCounter()
        writer.add(transactionObserver: commits, extent: .databaseLifetime)
        watcher = try path.map { try SQLiteFile.readOnlyConnection(at: $0, label: "data-version") }
    }

    /// Read before the data it labels, so a labelled answer is never older than its label.
    ///
    /// Synchronous on purpose: `data_version` is read from the WAL index in shared memory, a few microseconds with no
    /// file I/O, while a hop to the watcher's queue and back costs two thread wake-ups — more than the look-up it
    /// guards. The watcher's queue serializes callers like a lock held for that long: so the one statement on its
    /// own, not in `read`'s savepoint (three statements, and callers blocked behind them 200 times a second under
    /// new searches).
    package func current() throws -> Value {
        let commits = commits.count
        let dataVersion =
            try watcher?.inDatabase { try Int.fetchOne($0.cachedStatement(sql: "PRAGMA data_version")) } ?? 0
        return Value(commits: commits, dataVersion: dataVersion)
    }
}

/// Counts the writer's commits; told by SQLite before `write` returns to its caller.
private final class CommitCounter: TransactionObserver, Sendable {
    private let commits = Atomic(0)

    var count: Int { commits.load(ordering: .acquiring) }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { commits.wrappingAdd(1, ordering: .releasing) }
    func databaseDidRollback(_ db: Database) {}
}
