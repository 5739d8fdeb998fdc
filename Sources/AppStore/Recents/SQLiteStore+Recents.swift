import GRDB
import Posts

/// Recents: the terms, a term deleted with everything of its own, and the terms past the limit pushed out.
extension SQLiteStore: RecentsStore {
    func recentTerms() async throws -> [String] {
        try await writer.read { db in try String.fetchAll(db, sql: "SELECT term FROM recent ORDER BY searched DESC") }
    }

    func deleteRecent(_ term: SearchTermKey) async throws -> Bool {
        try await writer.write { db in
            guard let id = try Self.id(of: term, db) else { return false }
            // The term's rows gone first, the posts that no term counts now are those only it counted.
            try OrphanPosts.delete(Self.remove(id, db), db)
            return true
        }
    }

    /// The term's row, if it is in Recents.
    static func id(of term: SearchTermKey, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM recent WHERE key = ?"), arguments: [term.key])
    }

    /// Drops the untracked terms past the limit, their posts left to `orphans`: tracked terms stay whatever the limit.
    static func pushOut(into orphans: OrphanPosts, _ db: Database) throws {
        let beyondLimit = try db.cachedStatement(
            sql: """
                SELECT id FROM recent WHERE id NOT IN (SELECT termID FROM tracked) ORDER BY searched DESC \
                LIMIT -1 OFFSET ?
                """)
        for old in try Int64.fetchAll(beyondLimit, arguments: [Recents.limit]) {
            orphans.add(try remove(old, db))
        }
    }

    /// The term's rows in every table (nothing cascades, as foreign keys are not enforced): the posts it counted.
    static func remove(_ id: Int64, _ db: Database) throws -> [Int64] {
        let counted = try Int64.fetchAll(
            db.cachedStatement(sql: "DELETE FROM countedPost WHERE termID = ? RETURNING postRef"), arguments: [id])
        for delete in termRows { try db.cachedStatement(sql: delete).execute(arguments: [id]) }
        return counted
    }

    /// The rest of a term's rows, children first. Its tracking too: a deleted term's id may be the next term's (an
    /// `INTEGER PRIMARY KEY` reuses the largest), which would inherit it.
    private static let termRows = [
        "DELETE FROM mentionCount WHERE termID = ?", "DELETE FROM mentionTrend WHERE termID = ?",
        "DELETE FROM mentionPair WHERE termID = ?", "DELETE FROM mentionPairHour WHERE termID = ?",
        "DELETE FROM trackedSource WHERE termID = ?", "DELETE FROM tracked WHERE termID = ?",
        "DELETE FROM recent WHERE id = ?",
    ]
}
