import Synchronization

/// How many posts of terms pushed out of Recents wait to be deleted in a batch. A push-out used to delete its term's
/// posts in a transaction of its own after every new term's, holding a lock that every page counted took shared: every
/// other writer waited for it, on every new term. Now a push-out puts its term's posts in `orphan_post` inside the
/// search's own transaction, and once more than `allowance` wait (as this server counts them), each search is followed
/// by a batch that deletes those no term counts by then (`smashtag_delete_orphans`, which never waits for a lock).
/// The table is durable: what a server leaves waiting when it stops goes with the next batch, whichever server runs
/// it. A waiting post fetched again by another term is counted without being stored again, and stays.
final class PostgresOrphans: Sendable {
    /// As on SQLite: about 6 MB of posts.
    static let defaultAllowance = OrphanPosts.defaultAllowance
    /// Waiting posts looked at in one transaction, which holds a lock for each while it runs.
    static let batch = OrphanPosts.batch

    let allowance: Int
    private let state = Mutex(State())

    private struct State {
        var waiting = 0
        /// One batch at a time: every search that finds the allowance exceeded would otherwise start one.
        var isDeleting = false
    }

    init(allowance: Int) {
        self.allowance = max(0, allowance)
    }

    /// Notes `count` more posts waiting; true when a batch is due and the caller is to delete it (then `settle`).
    func add(_ count: Int) -> Bool {
        state.withLock { state in
            state.waiting += count
            guard state.waiting > allowance, !state.isDeleting else { return false }
            state.isDeleting = true
            return true
        }
    }

    /// The batch is over: `taken` posts were looked at (deleted, kept as counted, or left for a later batch).
    func settle(taken: Int) {
        state.withLock { state in
            state.waiting = max(0, state.waiting - taken)
            state.isDeleting = false
        }
    }
}
