import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints a WAL file on a connection of its own, on a queue of its own. SQLite's automatic checkpoint runs
/// inside the commit that takes the WAL past a thousand pages, on the writer's thread, and its two fsyncs block that
/// thread: under a different search on every request, 450 fsyncs of 2.5 ms each held the store's writer for a ninth
/// of its time while every search waited on it. The same threshold, a passive checkpoint (it never waits for
/// readers or the writer), only not in the writer's way.
final class WALCheckpointer: Sendable {
    /// WAL pages past which a checkpoint is asked for: SQLite's own default for its automatic checkpoint.
    let threshold: Int32
    /// A WAL that outgrows this (by default 64 MB of 4 KB pages; 47 MB at most was seen under a benchmark's load) is
    /// checkpointed by the writer itself, in its commit, as SQLite does: the checkpoints here run beside a writer that
    /// keeps adding pages, and the WAL starts over only once one of them has caught up with no reader in the way.
    let limit: Int32

    private struct State {
        var isScheduled = false
        var connection: DatabaseQueue?
    }

    private let path: String
    private let queue = DispatchQueue(label: "smashtag.wal-checkpoint", qos: .utility)
    private let state = Mutex(State())

    init(path: String, threshold: Int32 = 1000, limit: Int32 = 16_000) {
        (self.path, self.threshold, self.limit) = (path, threshold, limit)
    }

    /// Replaces SQLite's automatic checkpoint on `db` (the hook and the automatic checkpoint override each other).
    /// The pool keeps the checkpointer alive as long as its connections: its configuration holds it.
    func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, connection, _, frames in
                guard let context else { return SQLITE_OK }
                let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
                if frames >= checkpointer.limit {
                    sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                } else if frames >= checkpointer.threshold {
                    checkpointer.schedule()
                }
                return SQLITE_OK
            }, context)
    }

    /// One checkpoint at a time: commits meanwhile ask for nothing more.
    private func schedule() {
        let isNew = state.withLock { state in
            defer { state.isScheduled = true }
            return !state.isScheduled
        }
        if isNew { queue.async { self.checkpoint() } }
    }

    /// A failed checkpoint (another process checkpointing, the file gone) is not retried here: the next commit past
    /// the threshold asks again, as SQLite's automatic checkpoint would.
    private func checkpoint() {
        state.withLock { $0.isScheduled = false }
        guard let connection = try? openConnection() else { return }
        _ = try? connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }

    private func openConnection() throws -> DatabaseQueue {
        if let connection = state.withLock({ $0.connection }) { return connection }
        var configuration = Configuration()
        configuration.label = "wal-checkpoint"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        state.withLock { $0.connection = connection }
        return connection
    }
}
