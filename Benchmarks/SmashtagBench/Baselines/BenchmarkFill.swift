import AppStore
import GRDB
import Logging
import PostgresNIO

extension AppDatabase {
    /// Fills the popularity store with `links` (term, post) links over `terms` terms, and the counts and hourly
    /// trends of `mentions` mentions under each, straight in SQL: the size the benchmark measures at, reached in
    /// seconds.
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
            // Every link names the first mention and one other, at one of a year's hours: the first mention's
            // series under a term is a year of hours, the longest a trend query reads. The counts are their sums.
            try db.execute(
                sql: """
                    INSERT INTO mentionTrend(termID, mentionID, hour, count)
                    SELECT termID, mentionID, hour, count(*) FROM (
                        SELECT termID, 1 AS mentionID, 490000 + postRef % 8760 AS hour FROM countedPost
                        UNION ALL
                        SELECT termID, 2 + (postRef * 7919) % (?1 - 1), 490000 + postRef % 8760 FROM countedPost
                    ) GROUP BY 1, 2, 3;
                    INSERT INTO mentionCount(termID, mentionID, count) SELECT termID, mentionID, sum(count) FROM \
                    mentionTrend GROUP BY 1, 2;
                    UPDATE recent SET (earliestHour, latestHour) = (SELECT min(hour), max(hour) FROM mentionTrend \
                    WHERE termID = recent.id);
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
                INSERT INTO mention_trend (term_id, mention_id, hour, count)
                SELECT term_id, mention_id, hour, count(*) FROM (
                    SELECT term_id, 1 AS mention_id, 490000 + post_ref % 8760 AS hour FROM counted_post
                    UNION ALL
                    SELECT term_id, 2 + (post_ref * 7919) % (\(mentions) - 1), 490000 + post_ref % 8760 FROM \
                counted_post
                ) AS links GROUP BY 1, 2, 3
                """,
                """
                INSERT INTO mention_count (term_id, mention_id, count) SELECT term_id, mention_id, sum(count) FROM \
                mention_trend GROUP BY 1, 2
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
