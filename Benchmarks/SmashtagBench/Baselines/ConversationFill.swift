import AppStore
import GRDB
import Logging
import PostgresNIO
import PostgresSupport

/// The interactions a benchmark term holds: `interactions` replies among `users` people over a year of hours, who
/// answers whom skewed as conversations are (a few people write and receive most replies), straight in SQL. The term
/// is new (`conversation bench`), its users `@talker1…`.
enum ConversationFill {
    static let term = "conversation bench"

    /// Each interaction `x` as (source, target, hour) in SQL, `x` from 0.
    static func parts(_ x: String, users: Int) -> (source: String, target: String, hour: String) {
        (skewed("\(x) * 7919", users), skewed("\(x) * 104729", users), "490000 + \(x) % 8760")
    }

    /// A person's number from 1, the lowest the most likely: the square of an even draw, scaled down.
    private static func skewed(_ draw: String, _ users: Int) -> String {
        "1 + ((\(draw)) % \(users)) * ((\(draw)) % \(users)) / \(users)"
    }
}

extension AppDatabase {
    /// The SQLite store: mention ids after the highest, the term's id after the highest.
    public func fillSQLiteConversations(interactions: Int, users: Int) async throws {
        let (source, target, hour) = ConversationFill.parts("x", users: users)
        try await sqliteWriter!.write { db in
            let first = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM mention") ?? 0
            let termID = (try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM recent") ?? 0) + 1
            // Numbers written into the statements (GRDB binds a script's arguments statement by statement).
            try db.execute(
                sql: """
                    INSERT INTO recent(id, key, term, searched) VALUES (?, ?, ?, (SELECT coalesce(max(searched), 0) \
                    + 1 FROM recent))
                    """, arguments: [termID, ConversationFill.term, ConversationFill.term])
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(users))
                    INSERT INTO mention(id, kind, key, shown) SELECT \(first) + x, 1, '@talker' || x, '@Talker' || x \
                    FROM n;
                    CREATE TEMP TABLE act AS WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < \
                    \(interactions) - 1)
                    SELECT \(first) + \(source) AS s, \(first) + \(target) AS t, \(hour) AS h FROM n;
                    INSERT INTO interactionHour(termID, kind, hour, targetID, sourceID, weight)
                    SELECT \(termID), 1, h, t, s, count(*) FROM act WHERE s <> t GROUP BY h, t, s;
                    INSERT INTO interaction(termID, kind, targetID, sourceID, weight)
                    SELECT termID, 1, targetID, sourceID, sum(weight) FROM interactionHour WHERE termID = \(termID) \
                    GROUP BY 3, 4;
                    INSERT INTO interactionUser(termID, kind, userID, sent, received)
                    SELECT \(termID), 1, u, sum(sent), sum(received) FROM (
                        SELECT sourceID AS u, weight AS sent, 0 AS received FROM interaction WHERE termID = \(termID)
                        UNION ALL SELECT targetID, 0, weight FROM interaction WHERE termID = \(termID)) GROUP BY u;
                    DROP TABLE act;
                    """)
        }
    }

    /// The same on PostgreSQL.
    public func fillPostgresConversations(interactions: Int, users: Int) async throws {
        guard let client = postgresClient else { return }
        let (source, target, hour) = ConversationFill.parts("x", users: users)
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        try await client.withTransaction(logger: logger) { connection in
            let first = String(
                try await connection.value("SELECT coalesce(max(id), 0) AS n FROM mention", "n", as: Int.self) ?? 0)
            for statement: PostgresQuery in [
                """
                INSERT INTO recent (key, term, searched) VALUES (\(ConversationFill.term), \(ConversationFill.term), \
                nextval('recent_searched'))
                """,
                """
                INSERT INTO mention (kind, key, shown) SELECT 1, '@talker' || x, '@Talker' || x
                FROM generate_series(1, \(users)) x ORDER BY x
                """,
                """
                CREATE TEMP TABLE act ON COMMIT DROP AS
                SELECT \(unescaped: first) + \(unescaped: source) AS s, \(unescaped: first) + \(unescaped: target) AS t,
                    \(unescaped: hour) AS h
                FROM generate_series(0::bigint, \(interactions) - 1) x
                """,
                """
                INSERT INTO interaction_hour (term_id, kind, hour, target_id, source_id, weight)
                SELECT r.id, 1, h, t, s, count(*) FROM act, recent r WHERE r.key = \(ConversationFill.term) AND s <> t
                GROUP BY r.id, h, t, s
                """,
                """
                INSERT INTO interaction (term_id, kind, target_id, source_id, weight)
                SELECT term_id, 1, target_id, source_id, sum(weight) FROM interaction_hour GROUP BY 1, 3, 4
                """,
                """
                INSERT INTO interaction_user (term_id, kind, user_id, sent, received)
                SELECT term_id, 1, u, sum(sent), sum(received) FROM (
                    SELECT term_id, source_id AS u, weight AS sent, 0 AS received FROM interaction
                    UNION ALL SELECT term_id, target_id, 0, weight FROM interaction) AS e GROUP BY 1, 3
                """,
            ] { try await connection.run(statement) }
        }
        try await client.query("VACUUM ANALYZE", logger: logger)
    }
}
