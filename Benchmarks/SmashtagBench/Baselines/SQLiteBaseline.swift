import AppStore
import GRDB
import Posts

/// The lecture's approach to counting, kept as the benchmark's baseline (docs/PERFORMANCE.md): like Core Data's
/// find-or-create, each post and then each of its mentions is looked up by its own query and inserted or updated
/// when missing — a query per post and per mention, built afresh each time, one save per page. It writes the same
/// tables as `SearchSessions`, so both run on the same database and SQLite build.
///
/// The lecture matched mentions with a case-insensitive predicate (`keyword =[c] %@`), which no index serves;
/// `caseInsensitiveLookups` reproduces that, and without it the baseline gets exact, indexed look-ups (its best case).
public struct SQLiteBaseline: Sendable {
    let database: AppDatabase
    let caseInsensitiveLookups: Bool

    public init(database: AppDatabase, caseInsensitiveLookups: Bool = true) {
        self.database = database
        self.caseInsensitiveLookups = caseInsensitiveLookups
    }

    public func count(_ posts: [Post], under term: String) async throws {
        let term = try SearchTermKey(term)
        try await database.sqliteWriter!.write { db in
            let termID = try Self.findOrCreateTerm(term, db)
            for post in posts { try count(post, termID: termID, db) }
        }
    }

    private static func findOrCreateTerm(_ term: SearchTermKey, _ db: Database) throws -> Int64 {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM recent WHERE key = ?", arguments: [term.key]) {
            return id
        }
        try db.execute(
            sql:
                """
                INSERT INTO recent(key, term, searched) VALUES (?, ?, (SELECT coalesce(max(searched), 0) + 1 FROM \
                recent))
                """,
            arguments: [term.key, term.shown])
        return db.lastInsertedRowID
    }

    private func count(_ post: Post, termID: Int64, _ db: Database) throws {
        let key = [post.network.code.databaseValue, post.id.databaseValue]
        var reference = try Int64.fetchOne(
            db, sql: "SELECT id FROM post WHERE network = ? AND postID = ?", arguments: StatementArguments(key))
        if let reference {
            let known =
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM countedPost WHERE termID = ? AND postRef = ?",
                    arguments: [termID, reference]) ?? false
            guard !known else { return }
        } else {
            try db.execute(
                sql: "INSERT INTO post(network, postID, created, json) VALUES (?, ?, ?, ?)",
                arguments: StatementArguments(
                    key + [post.created.millisecondsSince1970.databaseValue, post.storedJSON.databaseValue]))
            reference = db.lastInsertedRowID
        }
        try db.execute(sql: "INSERT INTO countedPost(termID, postRef) VALUES (?, ?)", arguments: [termID, reference])
        let hour = TrendHour.of(post.created)
        let ids = try MentionTally.distinctMentions(of: post).map { mention in
            try countMention(mention, hour: hour, termID: termID, db)
        }
        try countPairs(Array(ids.prefix(MentionTally.pairedMentionLimit)), hour: hour, termID: termID, db)
    }

    /// Each pair of the post's mentions, found or created like the counts: both ways in total, once by the hour.
    private func countPairs(_ ids: [Int64], hour: Int, termID: Int64, _ db: Database) throws {
        for (offset, one) in ids.enumerated() {
            for other in ids.dropFirst(offset + 1) {
                let (low, high) = (min(one, other), max(one, other))
                try findOrAdd(
                    table: "mentionPairHour",
                    keys: ["termID": termID, "hour": Int64(hour), "mentionID": low, "partnerID": high],
                    db)
                try findOrAdd(table: "mentionPair", keys: ["termID": termID, "mentionID": low, "partnerID": high], db)
                try findOrAdd(table: "mentionPair", keys: ["termID": termID, "mentionID": high, "partnerID": low], db)
            }
        }
    }

    /// Adds one to the weight of the row with `keys`, creating it when missing: a look-up and a write.
    private func findOrAdd(table: String, keys: KeyValuePairs<String, Int64>, _ db: Database) throws {
        let condition = keys.map { "\($0.key) = ?" }.joined(separator: " AND ")
        let arguments = StatementArguments(keys.map(\.value))
        if try Int.fetchOne(db, sql: "SELECT weight FROM \(table) WHERE \(condition)", arguments: arguments) != nil {
            try db.execute(sql: "UPDATE \(table) SET weight = weight + 1 WHERE \(condition)", arguments: arguments)
        } else {
            let columns = keys.map(\.key).joined(separator: ", ")
            let marks = keys.map { _ in "?" }.joined(separator: ", ")
            try db.execute(
                sql: "INSERT INTO \(table)(\(columns), weight) VALUES (\(marks), 1)", arguments: arguments)
        }
    }

    private func countMention(
        _ mention: (kind: Mention.Kind, key: String, shown: String), hour: Int, termID: Int64, _ db: Database
    ) throws -> Int64 {
        // A function of the column, as a case-insensitive predicate compiles to: SQLite must scan.
        let lookup =
            caseInsensitiveLookups
            ? "SELECT id FROM mention WHERE lower(key) = ?" : "SELECT id FROM mention WHERE key = ?"
        var mentionID = try Int64.fetchOne(db, sql: lookup, arguments: [mention.key])
        if mentionID == nil {
            try db.execute(
                sql: "INSERT INTO mention(kind, key, shown) VALUES (?, ?, ?)",
                arguments: [mention.kind.code, mention.key, mention.shown])
            mentionID = db.lastInsertedRowID
        }
        let count = try Int.fetchOne(
            db, sql: "SELECT count FROM mentionCount WHERE termID = ? AND mentionID = ?",
            arguments: [termID, mentionID])
        if let count {
            try db.execute(
                sql: "UPDATE mentionCount SET count = ? WHERE termID = ? AND mentionID = ?",
                arguments: [count + 1, termID, mentionID])
        } else {
            try db.execute(
                sql: "INSERT INTO mentionCount(termID, mentionID, count) VALUES (?, ?, 1)",
                arguments: [termID, mentionID])
        }
        try countHour(hour, mentionID: mentionID, termID: termID, db)
        return mentionID!  // found or just inserted
    }

    /// The trend's hour, found or created like the count.
    private func countHour(_ hour: Int, mentionID: Int64?, termID: Int64, _ db: Database) throws {
        let arguments: StatementArguments = [termID, mentionID, hour]
        if try Int.fetchOne(
            db, sql: "SELECT count FROM mentionTrend WHERE termID = ? AND mentionID = ? AND hour = ?",
            arguments: arguments) != nil
        {
            try db.execute(
                sql: "UPDATE mentionTrend SET count = count + 1 WHERE termID = ? AND mentionID = ? AND hour = ?",
                arguments: arguments)
        } else {
            try db.execute(
                sql: "INSERT INTO mentionTrend(termID, mentionID, hour, count) VALUES (?, ?, ?, 1)",
                arguments: arguments)
        }
    }
}
