import GRDB
import Synchronization

/// Writes that arrive while the writer is busy are committed together: one transaction for the group, each write in
/// a savepoint of its own. A write is still all or nothing — a failing one is rolled back alone and only its caller
/// hears of it — and no caller returns before its write is committed. What the group saves is the commit: the pages
/// that several writes touch (Recents, the counts and their indexes) go to the WAL once per group, not once each,
/// and WAL checkpoints come that much less often.
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
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let write = Write(
                run: { db in
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
                let errors = try await writer.write { db in group.map { write in Self.savepoint(db, write.run) } }
                for (write, error) in zip(group, errors) { write.finish(error) }
            } catch {
                for write in group { write.finish(error) }
            }
        }
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
