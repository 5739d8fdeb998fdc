import GRDB
import PostgresSupport
import Synchronization

/// Writes that arrive while the writer is busy are committed together: one transaction for the group. A write is
/// still all or nothing — a failing one is rolled back alone and only its caller hears of it — and no caller returns
/// before its write is committed. What the group saves is the commit: the pages that several writes touch (Recents,
/// the counts and their indexes) go to the WAL once per group, not once each, and WAL checkpoints come that much
/// less often. Writes rarely fail, so a group first runs without a savepoint per write (each would copy every page
/// it touches into a statement journal); only a group in which one failed runs again, each write in a savepoint.
final class GroupCommit: Sendable {
    /// A group's writes run one after the other on the writer: a bound on how long the last of them waits.
    static let maximumGroup = 32

    private struct Write: Sendable {
        let run: @Sendable (Database) throws -> Void
        let finish: @Sendable ((any Error)?) -> Void
    }

    private struct Queue {
        var writes: [Write] = []
        var isCommitting = false
    }

    private let writer: any DatabaseWriter
    private let queue = Mutex(Queue())

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `work` in the next group's transaction and returns its result once that transaction is committed.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let result = Mutex<T?>(nil)
        let asked = ContinuousClock.now
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let write = Write(
                run: { db in
                    PoolWait.record(since: asked, database: "sqlite")
                    let value = try work(db)
                    result.withLock { $0 = value }
                },
                finish: { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            )
            enqueue(write)
        }
        return result.withLock { $0! }
    }

    private func enqueue(_ write: Write) {
        let startsGroup = queue.withLock { queue in
            queue.writes.append(write)
            defer { queue.isCommitting = true }
            return !queue.isCommitting
        }
        if startsGroup { Task { await commitGroups() } }
    }

    /// Commits groups until no write is waiting.
    private func commitGroups() async {
        while let group = nextGroup() {
            do {
                let together = try await commitTogether(group)
                let errors = if let together { together } else { try await commitApart(group) }
                for (write, error) in zip(group, errors) { write.finish(error) }
            } catch {
                for write in group { write.finish(error) }
            }
        }
    }

    /// The group in one transaction with nothing in between: no errors once committed; nil, with nothing written, if
    /// a write failed.
    private func commitTogether(_ group: [Write]) async throws -> [(any Error)?]? {
        do {
            try await writer.write { db in
                for write in group {
                    do { try write.run(db) } catch { throw GroupFailure() }
                }
            }
            return Array(repeating: nil, count: group.count)
        } catch is GroupFailure {
            return nil
        }
    }

    /// The group in one transaction, each write in a savepoint: the errors of those that failed, rolled back alone.
    private func commitApart(_ group: [Write]) async throws -> [(any Error)?] {
        try await writer.write { db in group.map { write in Self.savepoint(db, write.run) } }
    }

    /// The writes waiting, oldest first; nil (and the committer stops) when there are none.
    private func nextGroup() -> [Write]? {
        queue.withLock { queue in
            guard !queue.writes.isEmpty else {
                queue.isCommitting = false
                return nil
            }
            let group = Array(queue.writes.prefix(Self.maximumGroup))
            queue.writes.removeFirst(group.count)
            return group
        }
    }

    /// A write of the group failed: the group's transaction is rolled back and runs again, a savepoint per write.
    private struct GroupFailure: Error {}

    /// Runs one write in a savepoint: its error, after rolling back what it did.
    private static func savepoint(_ db: Database, _ run: (Database) throws -> Void) -> (any Error)? {
        do {
            try db.inSavepoint {
                try run(db)
                return .commit
            }
            return nil
        } catch {
            return error
        }
    }
}
