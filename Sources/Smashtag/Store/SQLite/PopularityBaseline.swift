import GRDB
import Posts
import Twitter

/// The lecture's approach to counting, kept as the benchmark's baseline (docs/PERFORMANCE.md): like Core Data's
/// find-or-create, each post and then each of its mentions is looked up by its own query and inserted or updated
/// when missing — a query per post and per mention, built afresh each time, one save per page. It writes the same
/// tables as `SearchSessions`, so both run on the same database and SQLite build.
///
/// The lecture matched mentions with a case-insensitive predicate (`keyword =[c] %@`), which no index serves;
/// `caseInsensitiveLookups` reproduces that, and without it the baseline gets exact, indexed look-ups (its best case).
public struct PopularityBaseline: Sendable {
    let database: AppDatabase
    let caseInsensitiveLookups: Bool

    public init(database: AppDatabase, caseInsensitiveLookups: Bool = true) {
        self.database = database
        self.caseInsensitiveLookups = caseInsensitiveLookups
    }

    public func count(_ posts: [Post], under term: String) async throws {
        let term = try SearchTermKey(term)
        try await database.sqliteWriter().write { db in
            let termID = try Self.findOrCreateTerm(term, db)
            for post in posts { try count(post, termID: termID, db) }
        }
    }

    private static func findOrCreateTerm(_ term: SearchTermKey, _ db: Database) throws -> Int64 {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM recent WHERE key = ?", arguments: [term.key]) { return id }
        try db.execute(sql: "INSERT INTO recent(key, term, searched) VALUES (?, ?, (SELECT coalesce(max(searched), 0) + 1 FROM recent))", arguments: [term.key, term.shown])
        return db.lastInsertedRowID
    }

    private func count(_ post: Post, termID: Int64, _ db: Database) throws {
        let key = [post.network.code.databaseValue, post.id.databaseValue]
        var reference = try Int64.fetchOne(db, sql: "SELECT id FROM post WHERE network = ? AND postID = ?", arguments: StatementArguments(key))
        if let reference {
            let known = try Bool.fetchOne(db, sql: "SELECT 1 FROM countedPost WHERE termID = ? AND postRef = ?", arguments: [termID, reference]) ?? false
            guard !known else { return }
        } else {
            try db.execute(sql: "INSERT INTO post(network, postID, created, json) VALUES (?, ?, ?, ?)",
                           arguments: StatementArguments(key + [post.created.millisecondsSince1970.databaseValue, post.codableJSON.databaseValue]))
            reference = db.lastInsertedRowID
        }
        try db.execute(sql: "INSERT INTO countedPost(termID, postRef) VALUES (?, ?)", arguments: [termID, reference])
        let hour = TrendHour.of(post.created)
        for mention in MentionTally([post]).mentions {
            try countMention(mention, hour: hour, termID: termID, db)
        }
    }

    private func countMention(_ mention: MentionTally.Entry, hour: Int, termID: Int64, _ db: Database) throws {
        // A function of the column, as a case-insensitive predicate compiles to: SQLite must scan.
        let lookup = caseInsensitiveLookups ? "SELECT id FROM mention WHERE lower(key) = ?" : "SELECT id FROM mention WHERE key = ?"
        var mentionID = try Int64.fetchOne(db, sql: lookup, arguments: [mention.key])
        if mentionID == nil {
            try db.execute(sql: "INSERT INTO mention(kind, key, shown) VALUES (?, ?, ?)", arguments: [mention.kind.code, mention.key, mention.shown])
            mentionID = db.lastInsertedRowID
        }
        let count = try Int.fetchOne(db, sql: "SELECT count FROM mentionCount WHERE termID = ? AND mentionID = ?", arguments: [termID, mentionID])
        if let count {
            try db.execute(sql: "UPDATE mentionCount SET count = ? WHERE termID = ? AND mentionID = ?", arguments: [count + 1, termID, mentionID])
        } else {
            try db.execute(sql: "INSERT INTO mentionCount(termID, mentionID, count) VALUES (?, ?, 1)", arguments: [termID, mentionID])
        }
        try countHour(hour, mentionID: mentionID, termID: termID, db)
    }

    /// The trend's hour, found or created like the count.
    private func countHour(_ hour: Int, mentionID: Int64?, termID: Int64, _ db: Database) throws {
        let arguments: StatementArguments = [termID, mentionID, hour]
        if try Int.fetchOne(db, sql: "SELECT count FROM mentionTrend WHERE termID = ? AND mentionID = ? AND hour = ?", arguments: arguments) != nil {
            try db.execute(sql: "UPDATE mentionTrend SET count = count + 1 WHERE termID = ? AND mentionID = ? AND hour = ?", arguments: arguments)
        } else {
            try db.execute(sql: "INSERT INTO mentionTrend(termID, mentionID, hour, count) VALUES (?, ?, ?, 1)", arguments: arguments)
        }
    }
}

extension AppDatabase {
    /// The SQLite store's writer, for the benchmarks that compare designs on the same file.
    func sqliteWriter() throws -> any DatabaseWriter {
        guard let store = store as? SQLiteStore else { throw StoreUnavailable(description: "This benchmark runs on the SQLite store only.") }
        return store.writer
    }

    /// Fills the popularity store with `links` (term, post) links over `terms` terms, and the counts and hourly
    /// trends of `mentions` mentions under each, straight in SQL: the size the benchmark measures at, reached in seconds.
    public func fillForBenchmark(links: Int, terms: Int, mentions: Int) async throws {
        let mentions = max(mentions, 2)  // the first and at least one other
        try await sqliteWriter().write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?1)
                INSERT INTO recent(id, key, term, searched) SELECT x, 'filler ' || x, 'filler ' || x, x FROM n;
                """, arguments: [terms])
            try db.execute(sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?1)
                INSERT INTO mention(id, kind, key, shown) SELECT x, 0, '#filler' || x, '#Filler' || x FROM n;
                """, arguments: [mentions])
            try db.execute(sql: """
                WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ?1 - 1)
                INSERT INTO countedPost(termID, postRef) SELECT min(x / (?1 / ?2) + 1, ?2), 1000000000000 + x FROM n;
                """, arguments: [links, terms])
            // Every link names the first mention and one other, at one of a year's hours: the first mention's
            // series under a term is a year of hours, the longest a trend query reads. The counts are their sums.
            try db.execute(sql: """
                INSERT INTO mentionTrend(termID, mentionID, hour, count)
                SELECT termID, mentionID, hour, count(*) FROM (
                    SELECT termID, 1 AS mentionID, 490000 + postRef % 8760 AS hour FROM countedPost
                    UNION ALL
                    SELECT termID, 2 + (postRef * 7919) % (?1 - 1), 490000 + postRef % 8760 FROM countedPost
                ) GROUP BY 1, 2, 3;
                INSERT INTO mentionCount(termID, mentionID, count) SELECT termID, mentionID, sum(count) FROM mentionTrend GROUP BY 1, 2;
                """, arguments: [mentions])
        }
    }
}
