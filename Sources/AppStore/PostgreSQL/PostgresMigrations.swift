import Logging
import PostgresNIO
import PostgresSupport
import Posts

/// The PostgreSQL store's schema, in versions recorded in `smashtag_migration` (see `PostgresMigrator`).
///
/// The tables are the SQLite store's, named the PostgreSQL way, with what concurrent writers need: `searched` comes
/// from a sequence (two servers cannot take the same `max + 1`), and since `v5` a page takes an advisory lock on each
/// of its posts (`PostgresFunctions`), which a batch deleting the posts of pushed-out terms takes alone, so a post is
/// never deleted while another server counts it.
enum PostgresMigrations {
    static let migrator = PostgresMigrator(
        table: "smashtag_migration", lock: .migrations, versions: versions, backfill: backfill)

    static let versions: [PostgresMigrator.Version] = [
        (
            "v1: recents, sessions, posts, popularity and trends",
            [
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
                    -- Covering: the popularity query reads a term's counts from the key alone, however scattered its \
                rows.
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
            ]
        ),
        (
            "v2: tracked terms",
            [
                """
                CREATE TABLE tracked (
                    term_id bigint PRIMARY KEY REFERENCES recent (id) ON DELETE CASCADE,
                    every integer NOT NULL,
                    sources text,
                    backfill integer NOT NULL,
                    since bigint NOT NULL,
                    due bigint NOT NULL,
                    lease_until bigint,
                    fetched bigint
                )
                """,
                "CREATE INDEX tracked_by_due ON tracked (due)",
                """
                CREATE TABLE tracked_source (
                    term_id bigint NOT NULL REFERENCES tracked (term_id) ON DELETE CASCADE,
                    source text NOT NULL,
                    newer text,
                    older text,
                    error text,
                    retry_at bigint,
                    failures integer NOT NULL DEFAULT 0,
                    gap text,
                    PRIMARY KEY (term_id, source)
                )
                """,
            ]
        ),
        (
            "v3: co-mentions",
            [
                """
                CREATE TABLE mention_pair (
                    term_id bigint NOT NULL REFERENCES recent (id) ON DELETE CASCADE,
                    mention_id bigint NOT NULL REFERENCES mention (id),
                    partner_id bigint NOT NULL REFERENCES mention (id),
                    weight integer NOT NULL,
                    PRIMARY KEY (term_id, mention_id, partner_id) INCLUDE (weight)
                )
                """,
                "CREATE INDEX mention_pair_by_weight ON mention_pair (term_id, mention_id, weight DESC, partner_id)",
                // A window reads a term's hours of every mention: from the index alone, however scattered the rows.
                "DROP INDEX mention_trend_by_hour",
                "CREATE INDEX mention_trend_by_hour ON mention_trend (term_id, hour) INCLUDE (mention_id, count)",
                """
                CREATE TABLE mention_pair_hour (
                    term_id bigint NOT NULL REFERENCES recent (id) ON DELETE CASCADE,
                    hour integer NOT NULL,
                    mention_id bigint NOT NULL REFERENCES mention (id),
                    partner_id bigint NOT NULL REFERENCES mention (id),
                    weight integer NOT NULL,
                    PRIMARY KEY (term_id, hour, mention_id, partner_id) INCLUDE (weight)
                )
                """,
            ]
        ),
        (
            "v4: counted times",
            [
                // When each post was first counted under the term (milliseconds since 1970, the counting
                // transaction's time). The default is set apart from the column so the rows counted before keep
                // NULL: a default given with the column would date them all to the migration.
                "ALTER TABLE counted_post ADD COLUMN counted bigint",
                """
                ALTER TABLE counted_post ALTER COLUMN counted SET DEFAULT \
                (extract(epoch FROM transaction_timestamp()) * 1000)::bigint
                """,
            ]
        ),
        (
            "v5: a search's page in one statement; a term's counts together, each with its strongest partners",
            [
                // The posts of terms pushed out of Recents, until a batch deletes those no term counts
                // (`PostgresOrphans`). No key: two terms pushed out together may both name a post, and a key would
                // make the second wait for the first to commit.
                "CREATE TABLE orphan_post (post_ref bigint NOT NULL)",
                // The hot tables' foreign keys were checked row by row, some 600 look-ups a new term's page; locks
                // keep them true instead (PostgresFunctions): a page locks its term's row and takes its posts'
                // advisory locks first, and whatever removes them locks them alone.
                """
                ALTER TABLE counted_post DROP CONSTRAINT counted_post_term_id_fkey,
                    DROP CONSTRAINT counted_post_post_ref_fkey
                """,
                """
                ALTER TABLE mention_trend DROP CONSTRAINT mention_trend_term_id_fkey,
                    DROP CONSTRAINT mention_trend_mention_id_fkey
                """,
                """
                ALTER TABLE mention_pair_hour DROP CONSTRAINT mention_pair_hour_term_id_fkey,
                    DROP CONSTRAINT mention_pair_hour_mention_id_fkey, DROP CONSTRAINT mention_pair_hour_partner_id_fkey
                """,
            ] + PostgresCountsTable.statements + PostgresFunctions.statements
        ),
        (
            "v6: one limit on a term",
            [
                // Terms longer than a term may be (earlier releases tracked any length) go with everything of theirs
                // (their tracking by cascade), as a term deleted from Recents does.
                """
                SELECT smashtag_delete_posts(smashtag_remove(array_agg(id), '\(PostgresChanges.channel)'))
                FROM (SELECT id FROM recent WHERE char_length(term) > \(SearchTermKey.maximumLength) FOR UPDATE) AS t
                HAVING count(*) > 0
                """
            ]
        ),
        (
            "v7: people, each with their own Recents",
            TeamSchema.postgres + [
                // Recording and pushing out by holder: the functions take one more parameter, so the old ones go.
                """
                DROP FUNCTION IF EXISTS smashtag_record(text, text, text, text, boolean, boolean, bigint, text, \
                bigint[], text[], bigint[], text[], bigint[], text[], text[], bigint[], bigint[], bigint[], bigint[], \
                bigint[], bigint[], bigint[], bigint[])
                """,
                "DROP FUNCTION IF EXISTS smashtag_push_out(bigint, text)",
            ] + PostgresFunctions.byHolder.map { $0.replacing("CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION") }
        ),
        (
            "v8: rechecks and retention",
            [
                // As on SQLite (v11): when a recheck last found the post published, and when it passed the keeping
                // time; no index: both walk the posts in the order they were stored.
                "ALTER TABLE post ADD COLUMN checked bigint",
                "ALTER TABLE post ADD COLUMN expired bigint",
                PostgresFunctions.subtractCounts,
                // A page whose posts named no hashtag or user raised "a mention without its row" (no ids for no keys).
                PostgresFunctions.addCounts.replacing("CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"),
            ]
        ),
        (
            "v9: keeping times and consent rules",
            // As on SQLite (v12).
            [
                "ALTER TABLE tracked ADD COLUMN keep_days integer",
                "ALTER TABLE tracked ADD COLUMN keep_forgets boolean NOT NULL DEFAULT false",
                ConsentRuleSchema.postgres,
            ]
        ),
        (
            "v10: conversations",
            // As on SQLite (v13), without foreign keys, as the other counts (v5).
            [
                """
                CREATE TABLE interaction (
                    term_id bigint NOT NULL, kind integer NOT NULL, target_id bigint NOT NULL,
                    source_id bigint NOT NULL, weight integer NOT NULL,
                    PRIMARY KEY (term_id, kind, target_id, source_id) INCLUDE (weight)
                )
                """,
                """
                CREATE TABLE interaction_hour (
                    term_id bigint NOT NULL, kind integer NOT NULL, hour integer NOT NULL, target_id bigint NOT NULL,
                    source_id bigint NOT NULL, weight integer NOT NULL,
                    PRIMARY KEY (term_id, kind, hour, target_id, source_id) INCLUDE (weight)
                )
                """,
                """
                CREATE TABLE interaction_user (
                    term_id bigint NOT NULL, kind integer NOT NULL, user_id bigint NOT NULL, sent integer NOT NULL,
                    received integer NOT NULL, PRIMARY KEY (term_id, kind, user_id)
                )
                """,
                """
                CREATE INDEX interaction_user_by_total ON interaction_user (term_id, kind, (sent + received) DESC, \
                user_id) INCLUDE (received)
                """,
                """
                CREATE TABLE interaction_post (
                    term_id bigint NOT NULL, kind integer NOT NULL, network smallint NOT NULL, post_id text NOT NULL,
                    author_id bigint, count integer NOT NULL, PRIMARY KEY (term_id, kind, network, post_id)
                )
                """,
                "CREATE INDEX interaction_post_by_count ON interaction_post (term_id, kind, count DESC)",
            ] + PostgresFunctions.beforeInteractions.map { "DROP FUNCTION IF EXISTS \($0)" }
                + PostgresFunctions.withInteractions.map {
                    $0.replacing("CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION")
                }
        ),
        ("v11: servers of a fleet", PostServers.postgres),
        (
            "v12: a holder's searches push out without waiting for each other",
            PostgresFunctions.withoutWaiting.map { $0.replacing("CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION") }
        ),
    ]

    /// What a version fills in from the stored posts, in its transaction after its statements.
    private static func backfill(_ version: Int, _ connection: PostgresConnection) async throws {
        if version == 3 { try await PostgresPairBackfill.run(connection) }
        if version == 10 { try await PostgresPairBackfill.interactions(connection) }
    }
}
