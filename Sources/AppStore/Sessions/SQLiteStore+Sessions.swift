import GRDB
import Posts
import SQLiteSupport

/// Searches recorded: Recents, the sessions' follow-on requests, the counting of each page.
extension SQLiteStore: SessionStore {
    func recordedTerm(_ key: String, of holder: Holder, counting keys: Set<PostKey>) async throws -> RecordedTerm? {
        try await writer.read { db in try Self.recordedTerm(key, holder, counting: keys, db) }
    }

    func record(_ term: SearchTermKey, of holder: Holder, _ page: PreparedPage) async throws -> SettledTerm? {
        let (settled, learned) = try await groupCommit.write {
            [generations, knownMentions, orphans] db -> (SettledTerm?, [String: Int64]) in
            // The generation is read only for a term left unchanged, the one use of it: inside the write
            // transaction it is the same before the read as after.
            let recorded = try Self.recordedTerm(term.key, holder, counting: page.found.keys, db)
            if let recorded, recorded.isUnchanged(by: term, page.found) {
                return (SettledTerm(term: recorded, generation: try generations.current()), [:])
            }
            let termID = try Self.moveToTop(
                term, of: holder, cursors: page.encodedCursors(saved: recorded?.cursors), pushingOut: orphans, db)
            let counter = SQLiteCounter(db: db, termID: termID, counted: recorded?.counted ?? [], known: knownMentions)
            return (nil, try counter.count(page))
        }
        knownMentions.remember(learned)
        await deleteOrphansIfDue()
        return settled
    }

    /// A batch of the pushed-out terms' posts, once more than the allowance wait, in a transaction after the search's
    /// own. Its failure is not the search's: the batch stays waiting, for the next search or the next opening.
    private func deleteOrphansIfDue() async {
        guard let batch = orphans.due() else { return }
        do {
            try await groupCommit.write { db in try OrphanPosts.delete(batch, db) }
            orphans.settle(batch)
        } catch {
            orphans.settle(nil)
        }
    }

    func countPoll(_ term: SearchTermKey, _ page: PreparedPage) async throws {
        let learned = try await groupCommit.write { [knownMentions] db -> [String: Int64] in
            guard let termID = try Self.id(of: term, db) else { return [:] }  // deleted meanwhile
            let counted = try Self.countedKeys(page.found.keys, termID: termID, db)
            return try SQLiteCounter(db: db, termID: termID, counted: counted, known: knownMentions).count(page)
        }
        knownMentions.remember(learned)
    }

    func cursors(of key: String) async throws -> SessionCursors? {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT newer, older FROM recent WHERE key = ?"), arguments: [key])
            return try row.flatMap { try SessionCursors(newer: $0["newer"], older: $0["older"]) }
        }
    }

    static func recordedTerm(
        _ key: String, _ holder: Holder, counting keys: Set<PostKey>, _ db: Database
    ) throws -> RecordedTerm? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT id, term, coalesce(
                            (SELECT searched FROM recentHolder WHERE holderID = ?2 AND termID = recent.id)
                            = (SELECT max(searched) FROM recentHolder WHERE holderID = ?2), 0) AS isFirst,
                            newer, older
                        FROM recent WHERE key = ?1
                        """), arguments: [key, holder.id])
        else { return nil }
        return RecordedTerm(
            shown: row["term"], isFirst: row["isFirst"],
            cursors: try SessionCursors(newer: row["newer"], older: row["older"]),
            counted: try countedKeys(keys, termID: row["id"], db))
    }

    /// Which of `keys` the term counted already.
    static func countedKeys(_ keys: Set<PostKey>, termID: Int64, _ db: Database) throws -> Set<PostKey> {
        // CROSS JOIN keeps the page's keys as the outer loop: left to itself, SQLite's planner walks every post the
        // term counted and looks each up in the page, which grew with the term (59 ms a page at 20,000 posts).
        var counted = Set<PostKey>()
        try ValuesList(PostKeys.rows(keys)).eachStatement { list, values in
            let rows = try Row.fetchCursor(
                values.statement(
                    """
                    WITH k(network, postID) AS (VALUES \(list))
                    SELECT p.network, p.postID FROM k CROSS JOIN post p ON p.network = k.network AND p.postID = k.postID
                    CROSS JOIN countedPost c ON c.termID = ? AND c.postRef = p.id
                    """, in: db, trailing: [termID.databaseValue]))
            while let found = try rows.next() {
                if let key = PostKeys.key(network: found["network"], id: found["postID"]) { counted.insert(key) }
            }
        }
        return counted
    }

    /// Moves the term to the top of the holder's Recents with its session's cursors (adding it if new) and drops
    /// their terms past the limit, the posts of those no one holds any more left to `orphans`.
    private static func moveToTop(
        _ term: SearchTermKey, of holder: Holder, cursors: SessionCursors.Encoded, pushingOut orphans: OrphanPosts,
        _ db: Database
    ) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO recent(key, term, searched, newer, older, countsWritten)
                VALUES (?1, ?2, (SELECT coalesce(max(searched), 0) + 1 FROM recent), ?3, ?4, 0)
                ON CONFLICT(key) DO UPDATE SET term = excluded.term, searched = excluded.searched,
                    newer = excluded.newer, older = excluded.older
                """
        ).execute(arguments: [term.key, term.shown, cursors.newer, cursors.older])
        // Read after, not returned: `RETURNING` made the upsert take 9 µs where both statements take 6.
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, searched FROM recent WHERE key = ?"), arguments: [term.key])
        guard let row else { throw DatabaseError(message: "no id for the recent term") }
        let id: Int64 = row["id"]
        try hold(id, searched: row["searched"], for: holder, pushingOut: orphans, db)
        return id
    }

}
