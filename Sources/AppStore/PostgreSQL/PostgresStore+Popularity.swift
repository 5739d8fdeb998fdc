import PostgresNIO
import Posts

/// What was counted: the popularity tables, the trends, the posts kept for pages that show them again. Text is
/// ordered `COLLATE "C"` (by code point), as SQLite orders it, whatever the database's own collation.
extension PostgresStore {
    func popularity(_ term: SearchTermKey) async throws -> PopularityTable {
        try await read { connection in try await Self.popularity(term, connection) }
    }

    /// Read in one snapshot, so the sparklines add up to the table's counts.
    func overview(_ term: SearchTermKey) async throws -> PopularityOverview {
        try await transaction { connection in
            try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return PopularityOverview(
                table: try await Self.popularity(term, connection),
                sparklines: try await Self.sparklines(term, buckets: Sparklines.length, connection))
        }
    }

    func series(_ term: SearchTermKey, mention: String, bucket: TrendBucket?) async throws -> TrendSeries {
        try await read { connection in try await Self.series(term, mention: mention, bucket: bucket, connection) }
    }

    func sparklines(_ term: SearchTermKey, buckets: Int) async throws -> Sparklines {
        try await read { connection in try await Self.sparklines(term, buckets: buckets, connection) }
    }

    func storedPost(_ key: PostKey) async throws -> Post? {
        let json = try await read { connection in
            try await connection.value(
                "SELECT json FROM post WHERE network = \(key.network.code) AND post_id = \(key.id)", "json",
                as: String.self)
        }
        return try json.map(StorablePost.decode)
    }

    func storedPosts(_ term: SearchTermKey, newest: Int64, oldest: Int64) async throws -> [Post] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT p.json FROM recent r JOIN counted_post c ON c.term_id = r.id JOIN post p ON p.id = c.post_ref
                WHERE r.key = \(term.key) AND p.created BETWEEN \(oldest) AND \(newest) ORDER BY p.created DESC, \
                p.network, p.id DESC
                """
            ).map { try $0["json"].decode(String.self) }
        }.map(StorablePost.decode)
    }

    func storedPostIDs() async throws -> [String] {
        try await read { connection in
            try await connection.rows(
                "SELECT post_id FROM post ORDER BY network, length(post_id), post_id COLLATE \"C\""
            ).map { try $0["post_id"].decode(String.self) }
        }
    }

    private static func popularity(
        _ term: SearchTermKey, _ connection: PostgresConnection
    ) async throws -> PopularityTable {
        let rows = try await connection.rows(
            """
            SELECT m.kind, m.shown, c.count FROM recent r
            JOIN mention_count c ON c.term_id = r.id AND c.count > 1
            JOIN mention m ON m.id = c.mention_id
            WHERE r.key = \(term.key)
            ORDER BY c.count DESC, m.key COLLATE "C"
            """)
        let shown = try await connection.value(
            "SELECT term FROM recent WHERE key = \(term.key)", "term", as: String.self)
        return PopularityTable(
            term: shown ?? term.shown,
            counted: try rows.map { row in
                (
                    kind: try row["kind"].decode(Int.self), mention: try row["shown"].decode(String.self),
                    count: try row["count"].decode(Int.self)
                )
            })
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
