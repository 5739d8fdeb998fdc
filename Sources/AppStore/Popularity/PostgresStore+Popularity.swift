import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What was counted: the popularity tables and the trends. Text is ordered `COLLATE "C"` (by code point), as SQLite
/// orders it, whatever the database's own collation.
extension PostgresStore: PopularityStore {
    /// Over all time, two statements that need no common snapshot (the partners are on the rows); a window's table
    /// reads its pairs too, in one snapshot.
    func popularity(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityTable {
        guard window.hours(at: now) != nil else {
            return try await read { connection in try await Self.allTimePopularity(term, connection) }
        }
        return try await snapshot { connection in try await Self.popularity(term, window, at: now, connection) }
    }

    func isCounted(_ term: SearchTermKey) async throws -> Bool {
        try await read { connection in try await Self.recent(term, connection) != nil }
    }

    /// Read in one snapshot, so the sparklines add up to the table's counts.
    func overview(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityOverview {
        try await snapshot { connection in
            PopularityOverview(
                table: try await Self.popularity(term, window, at: now, connection),
                sparklines: try await Self.sparklines(term, buckets: Sparklines.length, connection))
        }
    }

    func series(_ term: SearchTermKey, mention: String, bucket: TrendBucket?) async throws -> TrendSeries {
        try await read { connection in try await Self.series(term, mention: mention, bucket: bucket, connection) }
    }

    func sparklines(_ term: SearchTermKey, buckets: Int) async throws -> Sparklines {
        try await read { connection in try await Self.sparklines(term, buckets: buckets, connection) }
    }

    /// The rows, then (in a window) each row's partners, read in one snapshot.
    private static func popularity(
        _ term: SearchTermKey, _ window: TimeWindow, at now: Date, _ connection: PostgresConnection
    ) async throws -> PopularityTable {
        guard let hours = window.hours(at: now) else { return try await allTimePopularity(term, connection) }
        guard let (termID, shown) = try await recent(term, connection) else {
            return PopularityTable(term: term.shown, window: window, counted: [])
        }
        let rows = CountedMention.rows(try await counted(termID, in: hours, connection))
        return PopularityTable(
            term: shown, window: window, counted: try await partners(of: rows, termID, in: hours, connection))
    }

    /// Over all time: the term's spelling, then its rows, each with the strongest partners counting keeps on it: the
    /// rows' statement names the term's id, so PostgreSQL reads that one partition of the counts (a join to the term
    /// by its key would read them all).
    private static func allTimePopularity(
        _ term: SearchTermKey, _ connection: PostgresConnection
    ) async throws -> PopularityTable {
        guard let (termID, shown) = try await recent(term, connection) else {
            return PopularityTable(term: term.shown, window: .all, counted: [])
        }
        return PopularityTable(
            term: shown, window: .all, counted: CountedMention.rows(try await counted(termID, atLeast: 2, connection)))
    }

    /// The term's id and newest spelling; nil when it is not in Recents.
    static func recent(_ term: SearchTermKey, _ connection: PostgresConnection) async throws -> (Int64, String)? {
        guard let row = try await connection.rows("SELECT id, term FROM recent WHERE key = \(term.key)").first else {
            return nil
        }
        return (try row["id"].decode(Int64.self), try row["term"].decode(String.self))
    }

    /// A term's mentions counted at least `least` times over all time, each with its strongest partners.
    static func counted(
        _ termID: Int64, atLeast least: Int, _ connection: PostgresConnection
    ) async throws
        -> [CountedMention]
    {
        var counted: [CountedMention] = []
        for try await (id, kind, key, shown, count, partners) in try await connection.execute(
            CountedMentions(termID: termID, least: least), logger: .queries)
        {
            counted.append(
                CountedMention(id: id, kind: kind, key: key, shown: shown, count: count, partners: partners))
        }
        return counted
    }

    /// Every mention of a term named in a window or the one before, with its count in each.
    static func counted(
        _ termID: Int64, in hours: WindowHours, _ connection: PostgresConnection
    ) async throws
        -> [CountedMention]
    {
        try await connection.rows(
            """
            SELECT m.id, m.kind, m.key, m.shown, coalesce(sum(t.count) FILTER (WHERE t.hour >= \(hours.first)), 0) \
            AS count, coalesce(sum(t.count) FILTER (WHERE t.hour < \(hours.first)), 0) AS previous
            FROM mention_trend t JOIN mention m ON m.id = t.mention_id
            WHERE t.term_id = \(termID) AND t.hour >= \(hours.previousFirst) GROUP BY m.id
            """
        ).map { try CountedMention($0) }
    }

    /// In a window, the rows' partners from the window's pairs.
    private static func partners(
        of rows: [CountedMention], _ termID: Int64, in hours: WindowHours, _ connection: PostgresConnection
    ) async throws -> [CountedMention] {
        guard !rows.isEmpty else { return rows }
        let pairs = try await windowPairs(termID, in: hours, connection)
        let ids = Array(Set(pairs.flatMap { [$0.mention, $0.partner] }))
        var names: [Int64: String] = [:]
        for row in try await connection.rows("SELECT id, shown FROM mention WHERE id = ANY(\(ids)::bigint[])") {
            names[try row["id"].decode(Int64.self)] = try row["shown"].decode(String.self)
        }
        return StrongestPartners.of(rows, pairs: pairs, names: names)
    }

    /// The term's pairs named in the window (among `ids`, when given), each once.
    static func windowPairs(
        _ termID: Int64, in hours: WindowHours, among ids: [Int64]? = nil, _ connection: PostgresConnection
    ) async throws -> [(mention: Int64, partner: Int64, weight: Int)] {
        let query: PostgresQuery =
            if let ids {
                """
                SELECT mention_id, partner_id, sum(weight)::bigint AS weight FROM mention_pair_hour
                WHERE term_id = \(termID) AND hour >= \(hours.first) AND mention_id = ANY(\(ids)::bigint[])
                    AND partner_id = ANY(\(ids)::bigint[])
                GROUP BY 1, 2
                """
            } else {
                """
                SELECT mention_id, partner_id, sum(weight)::bigint AS weight FROM mention_pair_hour
                WHERE term_id = \(termID) AND hour >= \(hours.first) GROUP BY 1, 2
                """
            }
        return try await connection.rows(query).map { row in
            (
                mention: try row["mention_id"].decode(Int64.self), partner: try row["partner_id"].decode(Int64.self),
                weight: try row["weight"].decode(Int.self)
            )
        }
    }

    private static func series(
        _ term: SearchTermKey, mention: String, bucket: TrendBucket?, _ connection: PostgresConnection
    ) async throws -> TrendSeries {
        let found = try await connection.rows(
            """
            SELECT r.id AS term_id, r.term, m.id AS mention_id, m.shown, m.kind FROM recent r
            LEFT JOIN mention m ON m.key = \(TrendSeries.key(of: mention)) WHERE r.key = \(term.key)
            """
        ).first
        let termID = try found?["term_id"].decode(Int64.self)
        let span = try await termID.asyncMap { try await TermSpan(termID: $0, connection) } ?? nil
        guard let found, let termID, let span, let mentionID = try found["mention_id"].decode(Int64?.self) else {
            return .empty(
                term: try found?["term"].decode(String.self) ?? term.shown, mention: mention,
                bucket: bucket ?? span?.fittingBucket ?? .hour, isInRecents: found != nil)
        }
        let bucket = bucket ?? span.fittingBucket
        let points = try await connection.rows(
            """
            SELECT hour / \(bucket.hours) AS bucket, sum(count)::bigint AS count FROM mention_trend
            WHERE term_id = \(termID) AND mention_id = \(mentionID) GROUP BY 1 ORDER BY 1
            """
        ).map { row in
            return TrendPoint(
                bucket: try row["bucket"].decode(Int.self), of: bucket, count: try row["count"].decode(Int.self))
        }
        return TrendSeries(
            term: try found["term"].decode(String.self), mention: mention,
            counted: (shown: try found["shown"].decode(String.self), kind: try found["kind"].decode(Int.self)),
            bucket: bucket, points: points, span: span)
    }

    private static func sparklines(
        _ term: SearchTermKey, buckets: Int, _ connection: PostgresConnection
    ) async throws -> Sparklines {
        guard let termID = try await id(of: term.key, connection),
            let span = try await TermSpan(termID: termID, connection)
        else { return .none }
        let window = SparklineWindow(span: span, buckets: buckets)
        let rows = try await connection.rows(
            """
            SELECT m.key, t.hour / \(window.bucket.hours) AS bucket, sum(t.count)::bigint AS count
            FROM mention_trend t JOIN mention m ON m.id = t.mention_id
            WHERE t.term_id = \(termID) AND t.hour >= \(window.firstHour) GROUP BY m.key, 2
            """)
        return window.sparklines(
            try rows.map { row in
                return (
                    key: try row["key"].decode(String.self), bucket: try row["bucket"].decode(Int.self),
                    count: try row["count"].decode(Int.self)
                )
            })
    }
}

extension TermSpan {
    /// Two seeks in the trends' time index; nil when the term has counted nothing.
    init?(termID: Int64, _ connection: PostgresConnection) async throws {
        let row = try await connection.rows(
            """
            SELECT (SELECT min(hour) FROM mention_trend WHERE term_id = \(termID)) AS earliest,
                (SELECT max(hour) FROM mention_trend WHERE term_id = \(termID)) AS latest
            """
        ).first
        guard let row, let earliest = try row["earliest"].decode(Int?.self),
            let latest = try row["latest"].decode(Int?.self)
        else { return nil }
        self.init(earliest: earliest, latest: latest)
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

extension CountedMention {
    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row["id"].decode(Int64.self), kind: try row["kind"].decode(Int.self),
            key: try row["key"].decode(String.self), shown: try row["shown"].decode(String.self),
            count: try row["count"].decode(Int.self), previous: try row["previous"].decode(Int.self))
    }

}

extension PostgresStore {
    /// Reads in one snapshot, so that what is read together adds up.
    func snapshot<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction { connection in
            try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return try await work(connection)
        }
    }
}

/// A term's all-time counts with their partners, a statement each connection prepares once: planning the join took a
/// millisecond, more than reading the term's partition of 3,000 rows. Rows are decoded by position (by name, each
/// row's columns were looked up: a third of a 3,000-row table's time).
private struct CountedMentions: PostgresPreparedStatement {
    static let sql = """
        SELECT m.id, m.kind, m.key, m.shown, c.count, c.partner_names FROM mention_count c
        JOIN mention m ON m.id = c.mention_id WHERE c.term_id = $1 AND c.count >= $2
        """

    typealias Row = (Int64, Int, String, String, Int, [String])

    let termID: Int64
    let least: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(termID)
        bindings.append(least)
        return bindings
    }

    /// Cell by cell with concrete types: `PostgresRow.decode` of a tuple looks up its generic metadata on every row.
    func decodeRow(_ row: PostgresRow) throws -> Row {
        var cells = row.makeIterator()
        func next() throws -> PostgresCell {
            guard let cell = cells.next() else { throw PostgresDecodingError.Code.missingData }
            return cell
        }
        return (
            try next().decode(Int64.self), try next().decode(Int.self), try next().decode(String.self),
            try next().decode(String.self), try next().decode(Int.self), try next().decode([String].self)
        )
    }
}
