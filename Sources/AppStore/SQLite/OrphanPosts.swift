import GRDB
import Synchronization

/// The stored posts whose counting term was pushed out of Recents, deleted in batches rather than with the term.
///
/// A term pushed out by a new one took its posts with it in the new term's transaction: a third of that transaction
/// under a different query per request, and the posts were often fetched again by the next terms, to be stored
/// again. Now the pushed-out term's posts become candidates; once more than `allowance` wait, a batch of them is
/// deleted, each only if no term counts it by then, in a transaction of its own. No page shows a waiting post
/// (`storedPost` looks only at counted posts), and one counted again is kept. Candidates live in memory;
/// those a process leaves behind go when the store is next opened (`deleteAll`). A term deleted from Recents by hand
/// still takes its posts at once.
final class OrphanPosts: Sendable {
    /// About 6 MB of posts at most, waiting (a post's JSON is about 600 bytes).
    static let defaultAllowance = 10_000
    /// Deleted in one transaction: a few milliseconds of the writer.
    static let batch = 1_000

    let allowance: Int
    private let state = Mutex(State())

    private struct State {
        var candidates = Set<Int64>()
        /// One batch at a time: every search that finds the allowance exceeded would otherwise start one.
        var isDeleting = false
    }

    init(allowance: Int) {
        self.allowance = max(0, allowance)
    }

    /// Posts a pushed-out term counted. Harmless if its transaction then rolls back: they are still counted.
    func add(_ references: [Int64]) {
        state.withLock { $0.candidates.formUnion(references) }
    }

    /// A batch to delete when more than the allowance wait and no batch is being deleted; `settle` ends it.
    func due() -> [Int64]? {
        state.withLock { state in
            guard state.candidates.count > allowance, !state.isDeleting else { return nil }
            state.isDeleting = true
            return Array(state.candidates.prefix(Self.batch))
        }
    }

    /// The batch's transaction is over: committed, its posts deleted or counted again, or failed (`nil`), its posts
    /// still waiting.
    func settle(_ batch: [Int64]?) {
        state.withLock { state in
            if let batch { state.candidates.subtract(batch) }
            state.isDeleting = false
        }
    }

    /// Deletes the posts of `references` that no term counts.
    static func delete(_ references: [Int64], _ db: Database) throws {
        try ValuesList(references.map { [$0.databaseValue] }).eachStatement { list, values in
            try values.statement(
                """
                WITH r(id) AS (VALUES \(list))
                DELETE FROM post WHERE id IN (SELECT id FROM r)
                    AND NOT EXISTS (SELECT 1 FROM countedPost c WHERE c.postRef = post.id)
                """, in: db
            ).execute()
        }
    }

    /// Every post no term counts: what an earlier process left waiting.
    static func deleteAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM post WHERE NOT EXISTS (SELECT 1 FROM countedPost c WHERE c.postRef = post.id)")
    }
}
