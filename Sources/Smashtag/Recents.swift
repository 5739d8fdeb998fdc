import GRDB
import Posts
import Twitter

/// The most recent search terms (at most 100, newest first, unique case-insensitively, the newest spelling kept).
/// A term that leaves takes its popularity counts with it, and posts no remaining term counted are deleted.
public struct Recents: Sendable {
    public static let limit = 100
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Newest first.
    public func terms() async throws -> [String] {
        try await database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT term FROM recent ORDER BY searched DESC")
        }
    }

    /// Removes a term (matched case-insensitively); false if it was not there.
    @discardableResult
    public func delete(_ term: String) async throws -> Bool {
        let term = try SearchTermKey(term)
        return try await database.writer.write { db in
            guard let id = try Self.id(of: term, in: db) else { return false }
            try Self.remove(id, in: db)
            return true
        }
    }

    /// The term's row, if it is in Recents.
    static func id(of term: SearchTermKey, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM recent WHERE key = ?"), arguments: [term.key])
    }

    /// Moves the term to the top with its session's cursors (adding it if new) and drops terms past the limit.
    static func record(_ term: SearchTermKey, cursors: SessionCursors.Encoded, in db: Database) throws -> Int64 {
        let id = try Int64.fetchOne(db.cachedStatement(sql: """
            INSERT INTO recent(key, term, searched, newer, older)
            VALUES (?1, ?2, (SELECT coalesce(max(searched), 0) + 1 FROM recent), ?3, ?4)
            ON CONFLICT(key) DO UPDATE SET term = excluded.term, searched = excluded.searched,
                newer = excluded.newer, older = excluded.older
            RETURNING id
            """), arguments: [term.key, term.shown, cursors.newer, cursors.older])
        guard let id else { throw DatabaseError(message: "no id for the recent term") }
        let beyondLimit = try db.cachedStatement(sql: "SELECT id FROM recent ORDER BY searched DESC LIMIT -1 OFFSET ?")
        for old in try Int64.fetchAll(beyondLimit, arguments: [limit]) {
            try remove(old, in: db)
        }
        return id
    }

    /// The term's counts go with it (cascading), and its posts unless another term counted them.
    private static func remove(_ id: Int64, in db: Database) throws {
        try db.cachedStatement(sql: """
            DELETE FROM post WHERE id IN (SELECT postRef FROM countedPost WHERE termID = ?1)
                AND NOT EXISTS (SELECT 1 FROM countedPost c WHERE c.postRef = post.id AND c.termID != ?1)
            """).execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM recent WHERE id = ?").execute(arguments: [id])
    }
}
