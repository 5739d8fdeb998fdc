import Logging
import PostgresNIO

/// The PostgreSQL schema, in versions applied in order at start-up, each in a transaction of its own and recorded in
/// `smashtag_migration`. They run under a session advisory lock, so servers starting together on an empty database
/// wait for one another instead of racing to create the same tables.
///
/// The tables are the SQLite store's, named the PostgreSQL way, with two differences that concurrent writers need:
/// `searched` comes from a sequence (two servers cannot take the same `max + 1`), and `counted_post` refers to
/// `post`, so a term pruned on one server cannot delete a post that another server is counting at that moment (the
/// delete fails and runs again, and then keeps the post).
enum PostgresMigrations {
    static let versions: [(name: String, statements: [String])] = [
        ("v1: recents, sessions, posts, popularity and trends", [
            "CREATE SEQUENCE recent_searched",
            """
            CREATE TABLE recent (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                key text NOT NULL UNIQUE,
                term text NOT NULL,
                searched bigint NOT NULL,
                newer text,
                older text
            )
            """,
            "CREATE INDEX recent_by_searched ON recent (searched)",
            """
            CREATE TABLE post (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                network smallint NOT NULL,
                post_id text NOT NULL,
                created bigint NOT NULL,
                json text NOT NULL,
                UNIQUE (network, post_id)
            )
            """,
            """
            CREATE TABLE counted_post (
                term_id bigint NOT NULL REFERENCES recent (id) ON DELETE CASCADE,
                post_ref bigint NOT NULL REFERENCES post (id),
                PRIMARY KEY (term_id, post_ref)
            )
            """,
            "CREATE INDEX counted_post_by_post ON counted_post (post_ref)",
            """
            CREATE TABLE mention (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                kind smallint NOT NULL,
                key text NOT NULL UNIQUE,
                shown text NOT NULL
            )
            """,
            """
            CREATE TABLE mention_count (
                term_id bigint NOT NULL REFERENCES recent (id) ON DELETE CASCADE,
                mention_id bigint NOT NULL REFERENCES mention (id),
                count integer NOT NULL,
                -- Covering: the popularity query reads a term's counts from the key alone, however scattered its rows.
                PRIMARY KEY (term_id, mention_id) INCLUDE (count)
            )
            """,
            """
            CREATE TABLE mention_trend (
                term_id bigint NOT NULL REFERENCES recent (id) ON DELETE CASCADE,
                mention_id bigint NOT NULL REFERENCES mention (id),
                hour integer NOT NULL,
                count integer NOT NULL,
                PRIMARY KEY (term_id, mention_id, hour)
            )
            """,
            "CREATE INDEX mention_trend_by_hour ON mention_trend (term_id, hour)",
        ]),
    ]

    static func run(on client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(AdvisoryLock.migrations.classID), \(AdvisoryLock.migrations.objectID))", logger: logger)
            do {
                try await migrate(connection, logger: logger)
                try await unlock(connection, logger: logger)
            } catch {
                try? await unlock(connection, logger: logger)
                throw error
            }
        }
    }

    private static func unlock(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_unlock(\(AdvisoryLock.migrations.classID), \(AdvisoryLock.migrations.objectID))", logger: logger)
    }

    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS smashtag_migration (
                version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var applied = Set<Int>()
        for try await row in try await connection.query("SELECT version FROM smashtag_migration", logger: logger) {
            applied.insert(try row.makeRandomAccess()["version"].decode(Int.self))
        }
        for (index, version) in versions.enumerated() where !applied.contains(index + 1) {
            logger.info("Migrating the PostgreSQL store: \(version.name)")
            try await connection.withTransaction(logger: logger) { connection in
                for statement in version.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query("INSERT INTO smashtag_migration (version, name) VALUES (\(index + 1), \(version.name))", logger: logger)
            }
        }
    }
}

/// The advisory locks Smashtag takes, as (class, object) pairs in a class of its own ("SMTG"), so they cannot meet
/// another application's locks on the same database.
struct AdvisoryLock: Sendable {
    let classID: Int32
    let objectID: Int32
    let name: String

    static let migrations = AdvisoryLock(classID: 0x534D_5447, objectID: 1, name: "migrations")
    static let pruning = AdvisoryLock(classID: migrations.classID, objectID: 4, name: "Recents pruning")
}
