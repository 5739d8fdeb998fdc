import GRDB
import Posts

/// Recents: each holder's terms, a term deleted from them, the terms past the limit pushed out, and a term that no one
/// holds any more removed with everything of its own.
extension SQLiteStore: RecentsStore {
    func recentTerms(of holder: Holder) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT r.term FROM recentHolder h JOIN recent r ON r.id = h.termID WHERE h.holderID = ?
                        ORDER BY h.searched DESC
                        """), arguments: [holder.id])
        }
    }

    func deleteRecent(_ term: SearchTermKey, of holder: Holder) async throws -> Bool {
        try await writer.write { db in
            guard let id = try Self.id(of: term, db) else { return false }
            try db.execute(
                sql: "DELETE FROM recentHolder WHERE holderID = ? AND termID = ?", arguments: [holder.id, id])
            guard db.changesCount > 0 else { return false }
            // What the holder tracked goes with it, as it always has for the owner; a colleague's tracking stays.
            // One statement each: GRDB gives a script's arguments to its first statement only.
            try db.execute(
                sql: """
                    DELETE FROM trackedSource WHERE termID = ?1 AND termID IN (SELECT termID FROM tracked WHERE \
                    trackedBy = ?2)
                    """, arguments: [id, holder.id])
            try db.execute(sql: "DELETE FROM tracked WHERE termID = ? AND trackedBy = ?", arguments: [id, holder.id])
            try OrphanPosts.delete(Self.removeIfUnheld([id], db), db)
            return true
        }
    }

    /// The term's row, if it is in Recents.
    static func id(of term: SearchTermKey, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM recent WHERE key = ?"), arguments: [term.key])
    }

    /// Puts the term at `searched` in the holder's Recents and drops their untracked terms past the limit: those no
    /// one else holds go, their posts left to `orphans`. Tracked terms stay whatever the limit.
    static func hold(
        _ termID: Int64, searched: Int64, for holder: Holder, pushingOut orphans: OrphanPosts, _ db: Database
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO recentHolder(holderID, termID, searched) VALUES (?, ?, ?)
                ON CONFLICT(holderID, termID) DO UPDATE SET searched = excluded.searched
                """
        ).execute(arguments: [holder.id, termID, searched])
        let beyondLimit = try Int64.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT termID FROM recentHolder WHERE holderID = ? AND termID NOT IN (SELECT termID FROM tracked)
                    ORDER BY searched DESC LIMIT -1 OFFSET ?
                    """), arguments: [holder.id, Recents.limit])
        guard !beyondLimit.isEmpty else { return }
        for id in beyondLimit {
            try db.cachedStatement(sql: "DELETE FROM recentHolder WHERE holderID = ? AND termID = ?")
                .execute(arguments: [holder.id, id])
        }
        orphans.add(try removeIfUnheld(beyondLimit, db))
    }

    /// Removes those of the terms that no holder's Recents and no tracking hold: the posts they counted.
    static func removeIfUnheld(_ ids: [Int64], _ db: Database) throws -> [Int64] {
        var counted: [Int64] = []
        for id in ids {
            let held = try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM recentHolder WHERE termID = ?1)
                            OR EXISTS (SELECT 1 FROM tracked WHERE termID = ?1)
                        """), arguments: [id])
            if held != true { counted += try remove(id, db) }
        }
        return counted
    }

    /// The term's rows in every table (nothing cascades, as foreign keys are not enforced): the posts it counted. Its
    /// holders are the caller's: `removeIfUnheld` removes only terms no one holds. A term whose counts were never
    /// written (`PendingTallies`: searched, pushed out, never read — most terms under a different query each request)
    /// has no rows in the count tables to look for.
    static func remove(_ id: Int64, _ db: Database) throws -> [Int64] {
        // Read, then deleted: a `DELETE … RETURNING` of a term's twenty posts took 27 µs against 14 (SQLite keeps what
        // it returns in a table of its own first).
        let counted = try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT postRef FROM countedPost WHERE termID = ?"), arguments: [id])
        let written = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT countsWritten FROM recent WHERE id = ?"), arguments: [id])
        for delete in written == false ? otherRows : countRows + otherRows {
            try db.cachedStatement(sql: delete).execute(arguments: [id])
        }
        return counted
    }

    /// A term's counts.
    private static let countRows =
        [
            "DELETE FROM mentionCount WHERE termID = ?", "DELETE FROM mentionTrend WHERE termID = ?",
            "DELETE FROM mentionPair WHERE termID = ?", "DELETE FROM mentionPairHour WHERE termID = ?",
        ] + SQLiteInteractions.termRows

    /// The rest of a term's rows. Its tracking too: a deleted term's id may be the next term's (an `INTEGER PRIMARY
    /// KEY` reuses the largest), which would inherit it.
    private static let otherRows =
        ["DELETE FROM countedPost WHERE termID = ?"] + PendingTallies.termRows + [
            "DELETE FROM trackedSource WHERE termID = ?", "DELETE FROM tracked WHERE termID = ?",
            "DELETE FROM recent WHERE id = ?",
        ]
}
