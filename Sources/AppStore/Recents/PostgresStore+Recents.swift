import PostgresNIO
import PostgresSupport
import Posts

/// Recents: each holder's terms, and a term deleted from them (`smashtag_remove` once no one holds it; the terms
/// past the limit are pushed out by the functions that record and track).
extension PostgresStore: RecentsStore {
    func recentTerms(of holder: Holder) async throws -> [String] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT r.term FROM recent_holder h JOIN recent r ON r.id = h.term_id WHERE h.holder_id = \(holder.id)
                ORDER BY h.searched DESC
                """
            ).map { try $0["term"].decode(String.self) }
        }
    }

    /// The term's row is locked first, so a search adding it to someone's Recents waits, then finds it or adds it
    /// anew; what the holder tracked goes too. The posts no other term counts go with a term no one holds (those a
    /// page is counting at that moment wait for a later batch).
    func deleteRecent(_ term: SearchTermKey, of holder: Holder) async throws -> Bool {
        try await transaction { connection in
            guard
                let id = try await connection.value(
                    "SELECT id FROM recent WHERE key = \(term.key) FOR UPDATE", "id", as: Int64.self),
                try await !connection.rows(
                    """
                    DELETE FROM recent_holder WHERE holder_id = \(holder.id) AND term_id = \(id) RETURNING term_id
                    """
                ).isEmpty
            else { return false }
            try await connection.run("DELETE FROM tracked WHERE term_id = \(id) AND tracked_by = \(holder.id)")
            try await Self.removeIfUnheld(id, connection)
            try await Self.notify(term.key, connection)
            return true
        }
    }

    /// Removes the term, which the caller has locked, if no holder's Recents and no tracking hold it.
    static func removeIfUnheld(_ id: Int64, _ connection: PostgresConnection) async throws {
        try await connection.run(
            """
            SELECT smashtag_delete_posts(smashtag_remove(ARRAY[\(id)]::bigint[], \(PostgresChanges.channel)))
            WHERE NOT EXISTS (SELECT 1 FROM recent_holder WHERE term_id = \(id))
                AND NOT EXISTS (SELECT 1 FROM tracked WHERE term_id = \(id))
            """)
    }
}
