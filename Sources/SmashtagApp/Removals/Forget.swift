import AppStore
import Corpus
import Posts

/// A person forgotten: every post of theirs the store keeps, taken back out of every term's counts, trends and
/// networks, and every post of theirs in the corpus. Who it was is not kept anywhere (the audit trail records that a
/// person was forgotten, not whom).
public struct Forget: Sendable {
    /// What was removed.
    public struct Outcome: Sendable, Equatable {
        /// Posts the store kept (counted under terms).
        public var counted = 0
        /// Posts the corpus held.
        public var corpus = 0
        /// Terms whose counts went down.
        public var terms = 0
    }

    /// Corpus posts deleted at a time.
    static let page = 500

    let database: AppDatabase
    let corpus: (any PostCorpus)?

    public init(database: AppDatabase, corpus: (any PostCorpus)?) {
        (self.database, self.corpus) = (database, corpus)
    }

    /// Forgets the author `handle` (`@alice`, `alice`, `alice@example.social`). Throws `NotAHandle` for text that
    /// names no one.
    public func person(_ handle: String) async throws -> Outcome {
        let name = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0 == "," }),
            let query = try? SearchQuery(parsing: "from:" + name)
        else { throw NotAHandle(text: handle) }
        var outcome = Outcome()
        let removed = try await database.removePosts(try await database.storedKeys(byAuthor: name))
        (outcome.counted, outcome.terms) = (removed.posts, removed.terms.count)
        guard let corpus else { return outcome }
        // Each page is deleted before the next is asked for, so the newest page is always the rest.
        while case let page = try await corpus.search(query, .newest, count: Self.page), !page.posts.isEmpty {
            let deleted = try await corpus.delete(ids: page.posts.map(\.id))
            outcome.corpus += deleted
            if deleted == 0 { break }
        }
        return outcome
    }
}

/// What `forget` was given is not a handle.
public struct NotAHandle: ExplainedError, Equatable {
    let text: String

    public var description: String {
        "“\(text.excerpt())” is not a handle: give one such as @alice or alice@example.social."
    }
}
