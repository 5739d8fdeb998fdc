import Dispatch
import GRDB

/// How Smashtag opens its database files (the corpus and the app database): WAL, so reads go on during writes
/// and several processes share a file; a busy timeout instead of failing when another process writes.
package enum SQLiteFile {
    /// `enforcingForeignKeys: false` for a schema whose code deletes children itself: SQLite checks every row
    /// written against its parents, a look-up each.
    package static func pool(at path: String, enforcingForeignKeys: Bool = true) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = enforcingForeignKeys
        configuration.busyMode = .timeout(10)
        // In WAL mode NORMAL still keeps every transaction whole through a crash or a kill; it only skips the
        // fsync per commit (a power cut may lose the last commits).
        let checkpointer = WALCheckpointer(path: path)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            checkpointer.install(on: db)
        }
        return try DatabasePool(path: path, configuration: configuration)
    }

    /// `work` that blocks on a Dispatch thread, not a cooperative one: opening a file waits while another process
    /// holds its lock (up to the busy timeout), a migration may take minutes (re-indexing a corpus), and a search's
    /// read past its inline budget takes milliseconds. A cooperative thread blocked that long is a core the server
    /// does not serve with.
    package static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result(catching: work)) }
        }
    }

    /// A connection of its own to the database at `path` (which must exist), reading only.
    package static func readOnlyConnection(at path: String, label: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = label
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
