import AppStore
import GRDB
import Logging
import PostgresNIO
import PostgresSupport

extension AppDatabase {
    /// Fills the popularity store with `links` (term, post) links over `terms` terms, and the counts, hourly
    /// trends and co-mentions of `mentions` mentions under each, straight in SQL: the size the benchmark measures at,
    /// reached in seconds.
    public func fillSQLiteForBenchmark(links: Int, terms: Int, mentions: Int) async throws {
        let mentions = max(mentions, 2)  // the first and at least one other
        try await sqliteWriter!.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?1)
                    INSERT INTO recent(id, key, term, searched) SELECT x, 'filler ' || x, 'filler ' || x, x FROM n;
                    """, arguments: [terms])
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?1)
                    INSERT INTO mention(id, kind, key, shown) SELECT x, 0, '#filler' || x, '#Filler' || x FROM n;
                    """, arguments: [mentions])
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ?1 - 1)
                    INSERT INTO countedPost(termID, postRef) SELECT min(x / (?1 / ?2) + 1, ?2), 1000000000000 + x FROM \
                    n;
                    """, arguments: [links, terms])
            // Every link names the first mention and two others (one, when they coincide), at one of a year's hours:
            // the first mention's series under a term is a year of hours, the longest a trend query reads. The counts
            // are their sums; the pairs are the three (or one) pairs of each link's mentions.
            try db.execute(
                sql: """
                    CREATE TEMP TABLE link AS SELECT termID, 490000 + postRef % 8760 AS hour,
                        2 + (postRef * 7919) % (?1 - 1) AS a, 2 + (postRef * 104729) % (?1 - 1) AS b FROM countedPost;
                    INSERT INTO mentionTrend(termID, mentionID, hour, count)
                    SELECT termID, mentionID, hour, count(*) FROM (
                        SELECT termID, 1 AS mentionID, hour FROM link
                        UNION ALL SELECT termID, a, hour FROM link
                        UNION ALL SELECT termID, b, hour FROM link WHERE b <> a
                    ) GROUP BY 1, 2, 3;
                    INSERT INTO mentionCount(termID, mentionID, count) SELECT termID, mentionID, sum(count) FROM \
                    mentionTrend GROUP BY 1, 2;
                    UPDATE recent SET (earliestHour, latestHour) = (SELECT min(hour), max(hour) FROM mentionTrend \
                    WHERE termID = recent.id);
                    INSERT INTO mentionPairHour(termID, hour, mentionID, partnerID, weight)
                    SELECT termID, hour, x, y, count(*) FROM (
                        SELECT termID, hour, 1 AS x, a AS y FROM link
                        UNION ALL SELECT termID, hour, 1, b FROM link WHERE b <> a
                        UNION ALL SELECT termID, hour, min(a, b), max(a, b) FROM link WHERE b <> a
                    ) GROUP BY 1, 2, 3, 4;
                    INSERT INTO mentionPair(termID, mentionID, partnerID, weight)
                    SELECT termID, mentionID, partnerID, sum(weight) FROM mentionPairHour GROUP BY 1, 2, 3;
                    INSERT INTO mentionPair(termID, mentionID, partnerID, weight)
                    SELECT termID, partnerID, mentionID, sum(weight) FROM mentionPairHour GROUP BY 1, 2, 3;
                    DROP TABLE link;
                    """, arguments: [mentions])
        }
    }
}

extension AppDatabase {
    /// The same filling on PostgreSQL, whose database must be empty (the terms' and mentions' ids are then 1…n). The
    /// links name posts that are not stored, as on SQLite: the session skips the links' foreign key for the fill
    /// (`session_replication_role`, which needs a superuser, as the test cluster's is).
    public func fillPostgresForBenchmark(links: Int, terms: Int, mentions: Int) async throws {
        guard let client = postgresClient else { return }
        let mentions = max(mentions, 2)
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        try await client.withTransaction(logger: logger) { connection in
            let used = try await connection.value("SELECT count(*) AS n FROM recent", "n", as: Int.self)
            guard used == 0 else { throw BenchmarkError("The benchmark fills an empty database: give it a new one.") }
            for statement: PostgresQuery in [
                "SET LOCAL session_replication_role = replica",
                """
                INSERT INTO recent (key, term, searched) SELECT 'filler ' || x, 'filler ' || x, \
                nextval('recent_searched') FROM generate_series(1, \(terms)) x
                """,
                """
                INSERT INTO mention (kind, key, shown) SELECT 0, '#filler' || x, '#Filler' || x FROM \
                generate_series(1, \(mentions)) x
                """,
                """
                INSERT INTO counted_post (term_id, post_ref)
                SELECT least(x / (\(links) / \(terms)) + 1, \(terms)), 1000000000000 + x FROM generate_series(0, \
                \(links) - 1) x
                """,
                """
                CREATE TEMP TABLE link ON COMMIT DROP AS SELECT term_id, 490000 + post_ref % 8760 AS hour,
                    2 + (post_ref * 7919) % (\(mentions) - 1) AS a, 2 + (post_ref * 104729) % (\(mentions) - 1) AS b
                FROM counted_post
                """,
                """
                INSERT INTO mention_trend (term_id, mention_id, hour, count)
                SELECT term_id, mention_id, hour, count(*) FROM (
                    SELECT term_id, 1 AS mention_id, hour FROM link
                    UNION ALL SELECT term_id, a, hour FROM link
                    UNION ALL SELECT term_id, b, hour FROM link WHERE b <> a
                ) AS links GROUP BY 1, 2, 3
                """,
                """
                INSERT INTO mention_pair_hour (term_id, hour, mention_id, partner_id, weight)
                SELECT term_id, hour, x, y, count(*) FROM (
                    SELECT term_id, hour, 1 AS x, a AS y FROM link
                    UNION ALL SELECT term_id, hour, 1, b FROM link WHERE b <> a
                    UNION ALL SELECT term_id, hour, least(a, b), greatest(a, b) FROM link WHERE b <> a
                ) AS pairs GROUP BY 1, 2, 3, 4
                """,
                """
                INSERT INTO mention_pair (term_id, mention_id, partner_id, weight)
                SELECT term_id, mention_id, partner_id, sum(weight) FROM mention_pair_hour GROUP BY 1, 2, 3
                """,
                // Each count with its three strongest partners, as counting keeps them.
                """
                INSERT INTO mention_count (term_id, mention_id, count, partner_ids, partner_weights, partner_names)
                SELECT c.term_id, c.mention_id, c.count, coalesce(s.ids, '{}'), coalesce(s.weights, '{}'),
                    coalesce(s.names, '{}')
                FROM (SELECT term_id, mention_id, sum(count) AS count FROM mention_trend GROUP BY 1, 2) AS c
                LEFT JOIN (
                    SELECT term_id, one, array_agg(other ORDER BY r) AS ids, array_agg(weight ORDER BY r) AS weights,
                        array_agg(m.shown ORDER BY r) AS names
                    FROM (SELECT term_id, one, other, weight,
                            row_number() OVER (PARTITION BY term_id, one ORDER BY weight DESC, other) AS r
                        FROM (SELECT term_id, mention_id AS one, partner_id AS other, weight FROM mention_pair
                            UNION ALL SELECT term_id, partner_id, mention_id, weight FROM mention_pair) AS both_ways
                        ) AS ranked JOIN mention m ON m.id = ranked.other
                    WHERE r <= 3 GROUP BY 1, 2) AS s ON s.term_id = c.term_id AND s.one = c.mention_id
                """,
            ] { try await connection.run(statement) }
        }
        // What autovacuum would do soon after: statistics, and the visibility map index-only scans rely on.
        try await client.query("VACUUM ANALYZE", logger: logger)
    }
}

/// Why a benchmark cannot run, in one sentence.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
