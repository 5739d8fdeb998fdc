import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What was counted: the popularity tables and the trends.
extension SQLiteStore: PopularityStore {
    func popularity(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityTable {
        try await readingCounts(of: term) { db in try Self.popularity(term, window, at: now, db) }
    }

    func overview(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityOverview {
        try await readingCounts(of: term) { db in
            PopularityOverview(
                table: try Self.popularity(term, window, at: now, db),
                sparklines: try Self.sparklines(term, buckets: Sparklines.length, db))
        }
    }

    func series(_ term: SearchTermKey, mention: String, bucket: TrendBucket?) async throws -> TrendSeries {
        try await readingCounts(of: term) { db in try Self.series(term, mention: mention, bucket: bucket, db) }
    }

    func sparklines(_ term: SearchTermKey, buckets: Int) async throws -> Sparklines {
        try await readingCounts(of: term) { db in try Self.sparklines(term, buckets: buckets, db) }
    }

    /// A read of the term's counts, once the pages waiting under it are added to them (`PendingTallies`): one read
    /// when none wait; else a write that adds them, then the read.
    func readingCounts<Value: Sendable>(
        of term: SearchTermKey, _ read: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        let settled = try await writer.read { db -> Value? in
            try PendingTallies.areWaiting(term, db) ? nil : try read(db)
        }
        if let settled { return settled }
        let learned = try await groupCommit.write { [knownMentions] db -> [String: Int64] in
            guard let termID = try Self.id(of: term, db) else { return [:] }
            return try PendingTallies.add([termID], known: knownMentions, db)
        }
        knownMentions.remember(learned)
        return try await writer.read(read)
    }

    func isCounted(_ term: SearchTermKey) async throws -> Bool {
        try await writer.read { db in try Self.recent(term, db) != nil }
    }

    /// The rows, then each row's partners.
    private static func popularity(
        _ term: SearchTermKey, _ window: TimeWindow, at now: Date, _ db: Database
    ) throws -> PopularityTable {
        guard let (termID, shown) = try recent(term, db) else {
            return PopularityTable(term: term.shown, window: window, counted: [])
        }
        let hours = window.hours(at: now)
        let rows = try CountedMention.rows(
            hours.map { try counted(termID, in: $0, db) } ?? counted(termID, atLeast: 2, db))
        return PopularityTable(
            term: shown, window: window,
            counted: try hours.map { try partners(of: rows, termID, in: $0, db) } ?? partners(of: rows, termID, db))
    }

    /// The term's id and newest spelling (a primary-key look-up); nil when it is not in Recents.
    static func recent(_ term: SearchTermKey, _ db: Database) throws -> (Int64, String)? {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, term FROM recent WHERE key = ?"), arguments: [term.key])
        return row.map { ($0["id"], $0["term"]) }
    }

    /// A term's mentions counted at least `least` times over all time: one indexed query.
    static func counted(_ termID: Int64, atLeast least: Int, _ db: Database) throws -> [CountedMention] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.id, m.kind, m.key, m.shown, c.count FROM mentionCount c JOIN mention m ON m.id = \
                    c.mentionID
                    WHERE c.termID = ? AND c.count >= ?
                    """), arguments: [termID, least]
        ).map { CountedMention($0) }
    }

    /// Every mention of a term named in a window or the one before, with its count in each: a seek per mention into
    /// its hours (the trends' primary key).
    static func counted(_ termID: Int64, in hours: WindowHours, _ db: Database) throws -> [CountedMention] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.id, m.kind, m.key, m.shown, sum(CASE WHEN t.hour >= ?2 THEN t.count ELSE 0 END) AS count,
                        sum(CASE WHEN t.hour < ?2 THEN t.count ELSE 0 END) AS previous
                    FROM mentionCount c
                    CROSS JOIN mentionTrend t ON t.termID = c.termID AND t.mentionID = c.mentionID AND t.hour >= ?3
                    JOIN mention m ON m.id = c.mentionID
                    WHERE c.termID = ?1 GROUP BY c.mentionID
                    """), arguments: [termID, hours.first, hours.previousFirst]
        ).map { CountedMention($0) }
    }

    /// Over all time, each row's three strongest partners: the first three entries of its range of the weight index
    /// (ties: the mention met first, which has the lower id), whatever the number of its partners — all the rows'
    /// in one statement, as a statement per row spent more in the hops to SQLite than in SQLite. A mention never holds
    /// a line break (the text splits on white space), so the partners travel joined by one.
    private static func partners(of rows: [CountedMention], _ termID: Int64, _ db: Database) throws -> [CountedMention]
    {
        guard !rows.isEmpty else { return rows }
        var partners: [Int64: [String]] = [:]
        let cursor = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT r.value AS id, (
                        SELECT group_concat(shown, char(10)) FROM (
                            SELECT m.shown FROM mentionPair p CROSS JOIN mention m ON m.id = p.partnerID
                            WHERE p.termID = ?1 AND p.mentionID = r.value
                            ORDER BY p.weight DESC, p.partnerID LIMIT \(StrongestPartners.limit))) AS partners
                    FROM json_each(?2) r
                    """), arguments: [termID, jsonIDs(rows.map(\.id))])
        while let row = try cursor.next() {
            let joined: String? = row["partners"]
            partners[row["id"]] = joined.map { $0.split(separator: "\n").map(String.init) } ?? []
        }
        return rows.withPartners(partners)
    }

    /// In a window, the rows' partners from the window's pairs (one range of the hourly pairs' key).
    private static func partners(
        of rows: [CountedMention], _ termID: Int64, in hours: WindowHours, _ db: Database
    ) throws -> [CountedMention] {
        guard !rows.isEmpty else { return rows }
        let pairs = try windowPairs(termID, in: hours, db)
        let names = try Row.fetchAll(
            db, sql: "SELECT id, shown FROM mention WHERE id IN (SELECT value FROM json_each(?))",
            arguments: [jsonIDs(Set(pairs.flatMap { [$0.mention, $0.partner] }))]
        ).map { ($0["id"] as Int64, $0["shown"] as String) }
        return StrongestPartners.of(rows, pairs: pairs, names: Dictionary(uniqueKeysWithValues: names))
    }

    /// The term's pairs named in the window, each once.
    static func windowPairs(
        _ termID: Int64, in hours: WindowHours, among ids: [Int64]? = nil, _ db: Database
    ) throws -> [(mention: Int64, partner: Int64, weight: Int)] {
        let among = ids.map { _ in
            " AND mentionID IN (SELECT value FROM json_each(?3)) AND partnerID IN (SELECT value FROM json_each(?3))"
        }
        let arguments: StatementArguments =
            ids.map { [termID, hours.first, jsonIDs($0)] } ?? [termID, hours.first]
        return try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT mentionID, partnerID, sum(weight) AS weight FROM mentionPairHour
                    WHERE termID = ?1 AND hour >= ?2\(among ?? "") GROUP BY 1, 2
                    """), arguments: arguments
        ).map { (mention: $0["mentionID"], partner: $0["partnerID"], weight: $0["weight"]) }
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

extension CountedMention {
    init(_ row: Row) {
        self.init(
            id: row["id"], kind: row["kind"], key: row["key"], shown: row["shown"], count: row["count"],
            previous: row["previous"] ?? 0)
    }
}

/// Ids as one JSON array, for `IN (SELECT value FROM json_each(?))`: one parameter and one compiled statement
/// whatever their number.
func jsonIDs(_ ids: some Sequence<Int64>) -> String {
    "[" + ids.map(String.init).joined(separator: ",") + "]"
}
