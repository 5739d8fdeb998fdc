import GRDB
import Posts

/// What was counted: the popularity tables, the trends, the posts kept for pages that show them again.
extension SQLiteStore {
    func popularity(_ term: SearchTermKey) async throws -> PopularityTable {
        try await writer.read { db in try Self.popularity(term, db) }
    }

    func overview(_ term: SearchTermKey) async throws -> PopularityOverview {
        try await writer.read { db in
            PopularityOverview(
                table: try Self.popularity(term, db),
                sparklines: try Self.sparklines(term, buckets: Sparklines.length, db))
        }
    }

    func series(_ term: SearchTermKey, mention: String, bucket: TrendBucket?) async throws -> TrendSeries {
        try await writer.read { db in try Self.series(term, mention: mention, bucket: bucket, db) }
    }

    func sparklines(_ term: SearchTermKey, buckets: Int) async throws -> Sparklines {
        try await writer.read { db in try Self.sparklines(term, buckets: buckets, db) }
    }

    func storedPost(_ key: PostKey) async throws -> Post? {
        let json = try await writer.read { db in
            // Counted: a pushed-out term's posts wait for `OrphanPosts` to delete them.
            try String.fetchOne(
                db,
                sql: """
                    SELECT json FROM post WHERE network = ? AND postID = ? AND EXISTS (SELECT 1 FROM countedPost c \
                    WHERE c.postRef = post.id)
                    """, arguments: [key.network.code, key.id])
        }
        return try json.map(StorablePost.decode)
    }

    func storedPosts(_ term: SearchTermKey, newest: Int64, oldest: Int64) async throws -> [Post] {
        try await writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT p.json FROM recent r JOIN countedPost c ON c.termID = r.id JOIN post p ON p.id = c.postRef
                    WHERE r.key = ? AND p.created BETWEEN ? AND ? ORDER BY p.created DESC, p.network, p.id DESC
                    """, arguments: [term.key, oldest, newest])
        }.map(StorablePost.decode)
    }

    func storedPostIDs() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT postID FROM post ORDER BY network, length(postID), postID")
        }
    }

    /// The rows are one indexed query: the term's mentions counted more than once, most first, ties alphabetical
    /// (the term's newest spelling is a primary-key look-up beside it).
    private static func popularity(_ term: SearchTermKey, _ db: Database) throws -> PopularityTable {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.kind, m.shown, c.count FROM recent r
                JOIN mentionCount c ON c.termID = r.id AND c.count > 1
                JOIN mention m ON m.id = c.mentionID
                WHERE r.key = ?
                ORDER BY c.count DESC, m.key
                """, arguments: [term.key])
        let shown =
            try String.fetchOne(db, sql: "SELECT term FROM recent WHERE key = ?", arguments: [term.key]) ?? term.shown
        return PopularityTable(
            term: shown, counted: rows.map { (kind: $0["kind"], mention: $0["shown"], count: $0["count"]) })
    }

    private static func series(
        _ term: SearchTermKey, mention: String, bucket: TrendBucket?, _ db: Database
    ) throws -> TrendSeries {
        let key = TrendSeries.key(of: mention)
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT r.id AS termID, r.term, m.id AS mentionID, m.shown, m.kind FROM recent r LEFT JOIN mention m ON \
                m.key = ? WHERE r.key = ?
                """, arguments: [key, term.key])
        let span = try row.map { try TermSpan(termID: $0["termID"], db) } ?? nil
        guard let row, let span, let mentionID: Int64 = row["mentionID"] else {
            return .empty(
                term: row?["term"] ?? term.shown, mention: mention, bucket: bucket ?? span?.fittingBucket ?? .hour,
                isInRecents: row != nil)
        }
        let bucket = bucket ?? span.fittingBucket
        let points = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT hour / ?1 AS bucket, sum(count) AS count FROM mentionTrend WHERE termID = ?2 AND mentionID \
                    = ?3 GROUP BY 1 ORDER BY 1
                    """), arguments: [bucket.hours, row["termID"] as Int64, mentionID]
        ).map { TrendPoint(bucket: $0["bucket"], of: bucket, count: $0["count"]) }
        return TrendSeries(
            term: row["term"], mention: mention, counted: (shown: row["shown"], kind: row["kind"]), bucket: bucket,
            points: points, span: span)
    }

    private static func sparklines(_ term: SearchTermKey, buckets: Int, _ db: Database) throws -> Sparklines {
        guard let termID = try id(of: term, db), let span = try TermSpan(termID: termID, db) else { return .none }
        let window = SparklineWindow(span: span, buckets: buckets)
        // A seek per mention into its series' last hours (the primary key), rather than all of the term's hours.
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.key, t.hour / ?1 AS bucket, sum(t.count) AS count FROM mentionCount c
                    CROSS JOIN mentionTrend t ON t.termID = c.termID AND t.mentionID = c.mentionID AND t.hour >= ?3
                    JOIN mention m ON m.id = c.mentionID
                    WHERE c.termID = ?2 GROUP BY c.mentionID, 2
                    """), arguments: [window.bucket.hours, termID, window.firstHour])
        return window.sparklines(rows.map { (key: $0["key"], bucket: $0["bucket"], count: $0["count"]) })
    }
}

extension TermSpan {
    /// As counting keeps it on the term's row; nil when the term has counted nothing.
    init?(termID: Int64, _ db: Database) throws {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT earliestHour, latestHour FROM recent WHERE id = ?"), arguments: [termID])
        guard let row, let earliest: Int = row["earliestHour"], let latest: Int = row["latestHour"] else { return nil }
        self.init(earliest: earliest, latest: latest)
    }
}
