import AppStore
import Logging
import PostgresNIO
import PostgresSupport
import Posts

/// The popularity table as the PostgreSQL store read it before issue 39, the baseline of the 3,000-mention figure,
/// on copies of the store's own rows in that release's shape: the counts in one table, each term's rows among every
/// other term's (ordered by mention, as counting over time or the fill's aggregation left them), the key carrying the
/// count; the pairs both ways with their weight index. Read as that release read it, in one snapshot: the term, its
/// counts joined to the mentions, then each row's three strongest partners by a seek each into the weight index.
public struct PostgresPopularityBaseline: Sendable {
    let client: PostgresClient

    public init?(database: AppDatabase) {
        guard let client = database.postgresClient else { return nil }
        self.client = client
    }

    private static let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Makes the copies (`baseline_…`), with statistics and the visibility map set, as after autovacuum.
    public func prepare() async throws {
        for statement: PostgresQuery in [
            "DROP TABLE IF EXISTS baseline_count, baseline_pair",
            """
            CREATE TABLE baseline_count AS SELECT term_id, mention_id, count FROM mention_count
            ORDER BY mention_id, term_id
            """,
            "ALTER TABLE baseline_count ADD PRIMARY KEY (term_id, mention_id) INCLUDE (count)",
            """
            CREATE TABLE baseline_pair AS SELECT term_id, mention_id, partner_id, weight FROM mention_pair
            UNION ALL SELECT term_id, partner_id, mention_id, weight FROM mention_pair
            """,
            "ALTER TABLE baseline_pair ADD PRIMARY KEY (term_id, mention_id, partner_id) INCLUDE (weight)",
            "CREATE INDEX baseline_pair_by_weight ON baseline_pair (term_id, mention_id, weight DESC, partner_id)",
            "VACUUM ANALYZE baseline_count, baseline_pair",
        ] {
            try await client.query(statement, logger: Self.logger)
        }
    }

    public func drop() async throws {
        try await client.query("DROP TABLE IF EXISTS baseline_count, baseline_pair", logger: Self.logger)
    }

    /// The term's rows counted more than once, most first, ties by key, each with its partners as shown.
    public func table(for term: String) async throws -> [(mention: String, count: Int, partners: [String])] {
        let key = try SearchTermKey(term).key
        return try await client.withTransaction(logger: Self.logger) { connection in
            try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            guard
                let termID = try await connection.value(
                    "SELECT id FROM recent WHERE key = \(key)", "id", as: Int64.self)
            else { return [] }
            let rows = try await connection.rows(
                """
                SELECT m.id, m.kind, m.key, m.shown, c.count, 0 AS previous FROM baseline_count c
                JOIN mention m ON m.id = c.mention_id WHERE c.term_id = \(termID) AND c.count >= 2
                """)
            var counted: [(id: Int64, key: String, shown: String, count: Int)] = []
            for row in rows {
                counted.append(
                    (
                        try row["id"].decode(Int64.self), try row["key"].decode(String.self),
                        try row["shown"].decode(String.self), try row["count"].decode(Int.self)
                    ))
            }
            counted.sort { ($1.count, $0.key) < ($0.count, $1.key) }
            var partners: [Int64: [String]] = [:]
            for row in try await connection.rows(
                """
                SELECT r.id, m.shown FROM unnest(\(counted.map(\.id))::bigint[]) AS r (id) CROSS JOIN LATERAL (
                    SELECT p.partner_id, p.weight FROM baseline_pair p
                    WHERE p.term_id = \(termID) AND p.mention_id = r.id ORDER BY p.weight DESC, p.partner_id LIMIT 3) s
                JOIN mention m ON m.id = s.partner_id
                ORDER BY r.id, s.weight DESC, s.partner_id
                """)
            {
                partners[try row["id"].decode(Int64.self), default: []].append(try row["shown"].decode(String.self))
            }
            return counted.map { ($0.shown, $0.count, partners[$0.id] ?? []) }
        }
    }
}
