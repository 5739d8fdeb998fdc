import PostgresNIO
import PostgresSupport
import Synchronization

/// The ids of the corpus's terms, remembered for the whole process: a term is never renumbered or removed, so a
/// search or a batch names its terms without asking the database again. Bounded: past `limit` terms (a live index
/// meets new words all day) it starts over.
final class TermIDs: Sendable {
    private let known = Mutex<[String: Int32]>([:])
    static let limit = 200_000

    /// The ids one transaction or one search uses: what the process knows, and what it asks for. What it learns is
    /// remembered once its transaction has committed (`remember`): the id of a term inserted by a transaction that
    /// then rolled back names nothing.
    struct Session {
        let cache: TermIDs
        private(set) var ids: [String: Int32] = [:]

        init(cache: TermIDs) {
            self.cache = cache
        }

        subscript(key: String) -> Int32? { ids[key] }

        /// Finds the ids of `keys` that exist; the others stay unknown (a term no post has).
        mutating func find(_ keys: Set<String>, on connection: PostgresConnection) async throws {
            let missing = learnFromCache(keys)
            guard !missing.isEmpty else { return }
            try await read(connection.rows("SELECT id, key FROM corpus_term WHERE key = ANY(\(missing))"))
        }

        /// Finds or makes the ids of `keys`. Two writers making the same term meet on its unique key: the second
        /// waits for the first and then reads its id.
        mutating func name(_ keys: Set<String>, on connection: PostgresConnection) async throws {
            var missing = learnFromCache(keys).sorted()
            guard !missing.isEmpty else { return }
            try await read(
                connection.rows(
                    """
                    INSERT INTO corpus_term (key) SELECT unnest(\(missing)::text[])
                    ON CONFLICT DO NOTHING RETURNING id, key
                    """))
            missing.removeAll { ids[$0] != nil }
            guard !missing.isEmpty else { return }
            try await read(connection.rows("SELECT id, key FROM corpus_term WHERE key = ANY(\(missing))"))
        }

        /// The keys the process does not know yet.
        private mutating func learnFromCache(_ keys: Set<String>) -> [String] {
            let unknown = keys.filter { ids[$0] == nil }
            let cached = cache.known.withLock { known in unknown.compactMap { key in known[key].map { (key, $0) } } }
            for (key, id) in cached { ids[key] = id }
            return unknown.filter { ids[$0] == nil }
        }

        private mutating func read(_ rows: [PostgresRandomAccessRow]) throws {
            for row in rows { ids[try row["key"].decode(String.self)] = try row["id"].decode(Int32.self) }
        }
    }

    func session() -> Session { Session(cache: self) }

    /// What a committed transaction or a search found.
    func remember(_ session: Session) {
        known.withLock { known in
            if known.count + session.ids.count > Self.limit { known.removeAll(keepingCapacity: true) }
            known.merge(session.ids) { old, _ in old }
        }
    }
}
