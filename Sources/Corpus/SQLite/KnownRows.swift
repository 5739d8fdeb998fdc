import GRDB
import Posts
import Synchronization

/// The authors a corpus's writer has met, kept from one transaction to the next: an import meets the same few
/// thousand people in every batch, and upserting each again (to take a newer name) was a large part of the
/// writer's work. An author's row changes only when a profile is resolved, which forgets it. What another
/// connection commits may change it too, so a writer starts from nothing after any commit not its own
/// (`PRAGMA data_version`).
struct KnownRows: Sendable {
    /// An author's row as last written or read.
    struct Author: Sendable {
        let id: Int64
        /// The handle a DID-named author resolved to.
        let resolvedHandle: String?
        let name: String
        let picture: String?

        /// Whether the row already says what a post names: its name, and its picture unless the post has none.
        func isShown(as author: Posts.Author) -> Bool {
            name == author.name && (author.profileImageURL == nil || author.profileImageURL == picture)
        }
    }

    /// A bound on what is kept, so memory stays flat on a corpus of millions of people: past it, all is forgotten
    /// and learnt again.
    static let authorLimit = 100_000

    /// By lower-cased handle.
    private(set) var authors: [String: Author] = [:]

    mutating func remember(_ author: Author, as key: String) {
        if authors.count >= Self.authorLimit { authors = [:] }
        authors[key] = author
    }

    mutating func forget(author key: String) {
        authors[key] = nil
    }
}

/// What a corpus's writes remember between transactions (`KnownRows`), replaced by what each committed transaction
/// knew at its end. A transaction takes it whole (so adding to it copies nothing) and gives it back on commit: one
/// rolled back leaves nothing remembered, and the next starts afresh.
final class WriterMemory: Sendable {
    private struct State {
        var known = KnownRows()
        /// The writer connection's `data_version` when `known` was last valid: another connection's commit moves it.
        var dataVersion: Int?
    }

    private let state = Mutex(State())

    /// What a transaction on `db` (the writer) starts from; after it commits, what it ends with is kept.
    func known(in db: Database) throws -> KnownRows {
        let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version"))
        return state.withLock { state in
            if state.dataVersion != version { state = State(known: KnownRows(), dataVersion: version) }
            defer { state.known = KnownRows() }
            return state.known
        }
    }

    /// Keeps `known` once the transaction on `db` commits.
    func keep(_ known: KnownRows, after db: Database) {
        db.afterNextTransaction(onCommit: { [self] _ in state.withLock { $0.known = known } })
    }
}
