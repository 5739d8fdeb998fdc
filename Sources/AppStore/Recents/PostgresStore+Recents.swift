import PostgresNIO
import PostgresSupport
import Posts

/// Recents: the terms, and a term deleted with everything of its own (`smashtag_remove`; the terms past the limit are
/// pushed out by the functions that record and track).
extension PostgresStore: RecentsStore {
    func recentTerms() async throws -> [String] {
        try await read { connection in
            try await connection.rows("SELECT term FROM recent ORDER BY searched DESC").map {
                try $0["term"].decode(String.self)
            }
        }
    }

    /// The term goes at once, waiting for a page being counted under it, and the posts no other term counts with it
    /// (those a page is counting at that moment wait for a later batch).
    func deleteRecent(_ term: SearchTermKey) async throws -> Bool {
        try await pool.statement(
            """
            SELECT smashtag_delete_posts(smashtag_remove(array_agg(id), \(PostgresChanges.channel))) AS deleted
            FROM (SELECT id FROM recent WHERE key = \(term.key) FOR UPDATE) AS t HAVING count(*) > 0
            """
        ).first != nil
    }
}
