import PostgresNIO
import PostgresSupport
import Posts

/// The posts kept for pages that show them again: only those a term still counts.
extension PostgresStore: StoredPostStore {
    func storedPost(_ key: PostKey) async throws -> Post? {
        let json = try await read { connection in
            try await connection.value(
                "SELECT json FROM post WHERE network = \(key.network.code) AND post_id = \(key.id)", "json",
                as: String.self)
        }
        return try json.map(StorablePost.decode)
    }

    func storedPosts(_ term: SearchTermKey, newest: Int64, oldest: Int64) async throws -> [Post] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT p.json FROM recent r JOIN counted_post c ON c.term_id = r.id JOIN post p ON p.id = c.post_ref
                WHERE r.key = \(term.key) AND p.created BETWEEN \(oldest) AND \(newest) ORDER BY p.created DESC, \
                p.network, p.id DESC
                """
            ).map { try $0["json"].decode(String.self) }
        }.map(StorablePost.decode)
    }

    func storedPostIDs() async throws -> [String] {
        try await read { connection in
            try await connection.rows(
                "SELECT post_id FROM post ORDER BY network, length(post_id), post_id COLLATE \"C\""
            ).map { try $0["post_id"].decode(String.self) }
        }
    }
}
