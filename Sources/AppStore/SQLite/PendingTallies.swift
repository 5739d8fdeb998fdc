import GRDB
import Posts

/// The pages counted under a term whose mentions are not in its counts yet: added when the counts are first read.
///
/// Writing a new term's page into its counts took some 340 index entries at twenty posts (the counts, the hours, the
/// pairs both ways and by the hour, the interactions), and the term pushed out of Recents by it deleted as many:
/// three quarters of the Search page's cost under a different query each request, for counts most searches never
/// show. A page is still marked counted in the search's transaction (`countedPost`: each post counted once under the
/// term, whatever happens later); its posts' references wait here, in the same transaction, and whatever reads the
/// term's counts first adds them (`SQLiteStore.readingCounts`), in one transaction, from the posts as the store keeps
/// them — what a removal takes back. A term that goes (pushed out, deleted) takes its waiting pages with it, none of
/// their counts written.
enum PendingTallies {
    /// Pages that may wait under one term: a tracked term that no one reads is added to its counts every tenth page,
    /// and a first read never has more than ten pages (two hundred posts at a page size of twenty) to add.
    static let maximumPages = 10

    /// The table, and how a term's pages are found (migration v15).
    static let schema = """
        -- A term's counted posts not yet in its counts: one row a page, its post references as a JSON array.
        CREATE TABLE pendingTally (
            id INTEGER PRIMARY KEY,
            termID INTEGER NOT NULL REFERENCES recent(id),
            postRefs TEXT NOT NULL
        );
        CREATE INDEX pendingTally_by_term ON pendingTally(termID);
        """

    /// Whether any of a term's counts were written (migration v16): until then every page counted under it waits
    /// here, and a term that goes has no rows in the count tables to delete. Terms before it may have counts.
    static let writtenColumn = "ALTER TABLE recent ADD COLUMN countsWritten INTEGER NOT NULL DEFAULT 1"

    /// What a deleted term leaves of this table.
    static let termRows = ["DELETE FROM pendingTally WHERE termID = ?"]

    /// The page's newly counted posts wait under the term; when the term has `maximumPages` waiting, they are added
    /// now. Returns the mention ids it had to look up.
    static func wait(
        _ references: [Int64], under termID: Int64, known: KnownMentions, _ db: Database
    ) throws
        -> [String: Int64]
    {
        guard !references.isEmpty else { return [:] }
        try db.cachedStatement(sql: "INSERT INTO pendingTally(termID, postRefs) VALUES (?, ?)")
            .execute(arguments: [termID, "[" + references.map(String.init).joined(separator: ",") + "]"])
        let waiting =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM pendingTally WHERE termID = ?"), arguments: [termID])
            ?? 0
        return waiting < maximumPages ? [:] : try add(termID, known: known, db)
    }

    /// Whether pages wait under the term (one in Recents).
    static func areWaiting(_ term: SearchTermKey, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM recent r JOIN pendingTally p ON p.termID = r.id WHERE r.key = ?)
                    """), arguments: [term.key]) ?? false
    }

    /// Adds the pages waiting under each term to its counts, oldest first, and forgets them. A post this release
    /// cannot read adds nothing, as when counts were made again from the stored posts (`TrendBackfill`). Returns the
    /// mention ids it had to look up.
    @discardableResult
    static func add(_ termIDs: some Sequence<Int64>, known: KnownMentions, _ db: Database) throws -> [String: Int64] {
        var learned: [String: Int64] = [:]
        for termID in termIDs { learned.merge(try add(termID, known: known, db)) { old, _ in old } }
        return learned
    }

    private static func add(_ termID: Int64, known: KnownMentions, _ db: Database) throws -> [String: Int64] {
        let posts = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT p.json FROM pendingTally t, json_each(t.postRefs) r JOIN post p ON p.id = r.value
                    WHERE t.termID = ? ORDER BY t.id, r.key
                    """), arguments: [termID]
        ).compactMap { row in try? StorablePost.decode(row["json"]) }
        try db.cachedStatement(sql: "DELETE FROM pendingTally WHERE termID = ?").execute(arguments: [termID])
        let tally = MentionTally(posts)
        guard !tally.isEmpty else { return [:] }
        try db.cachedStatement(sql: "UPDATE recent SET countsWritten = 1 WHERE id = ? AND countsWritten = 0")
            .execute(arguments: [termID])
        return try SQLiteCounter(db: db, termID: termID, counted: [], known: known).add(tally)
    }
}
