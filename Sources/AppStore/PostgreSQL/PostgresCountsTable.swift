/// How migration `v5` reshapes the PostgreSQL store's counts for the popularity table, which must read a term's
/// rows quickly however many other terms there are (docs/PERFORMANCE.md, issue 39):
///
/// - **A term's rows together.** `mention_count` is partitioned by the hash of the term into `partitions` tables,
///   each holding one or two of Recents' terms, so a term's 3,000 rows lie on some 60 pages of its own instead of one
///   page each among every term's rows (1,500 heap pages for 3,000 rows at 10,000,000 links). The key no longer
///   carries the count (it let the read skip the heap, but only while the visibility map said so), and pages are
///   left a fifth free, so a count's update stays on its page (a HOT update: no index entry).
/// - **Each row with its three strongest partners** (ids, weights, names, strongest first), kept by counting
///   (`smashtag_add_counts`), instead of a seek per row into the pairs' weight index at every read (3,000 seeks, most
///   of the read's time).
/// - **Pairs once.** `mention_pair` kept each pair both ways for those seeks; once (the lower id first) is what the
///   network reads, and half the rows to write. Its weight index goes.
enum PostgresCountsTable {
    /// Fixed by the migration: a database keeps the partitions it was made with.
    static let partitions = 64

    static let statements =
        [
            "ALTER TABLE mention_count RENAME TO mention_count_v4",
            "ALTER INDEX mention_count_pkey RENAME TO mention_count_v4_pkey",
            """
            CREATE TABLE mention_count (
                term_id bigint NOT NULL, mention_id bigint NOT NULL, count integer NOT NULL,
                partner_ids bigint[] NOT NULL, partner_weights integer[] NOT NULL, partner_names text[] NOT NULL,
                PRIMARY KEY (term_id, mention_id)
            ) PARTITION BY HASH (term_id)
            """,
        ]
        + (0..<partitions).map { remainder in
            """
            CREATE TABLE mention_count_\(remainder) PARTITION OF mention_count
            FOR VALUES WITH (MODULUS \(partitions), REMAINDER \(remainder)) WITH (fillfactor = 80)
            """
        } + [
            """
            INSERT INTO mention_count
            SELECT c.term_id, c.mention_id, c.count, coalesce(s.ids, '{}'), coalesce(s.weights, '{}'),
                coalesce(s.names, '{}')
            FROM mention_count_v4 c LEFT JOIN LATERAL (
                SELECT array_agg(p.partner_id ORDER BY p.weight DESC, p.partner_id) AS ids,
                    array_agg(p.weight ORDER BY p.weight DESC, p.partner_id) AS weights,
                    array_agg(m.shown ORDER BY p.weight DESC, p.partner_id) AS names
                FROM (SELECT partner_id, weight FROM mention_pair
                    WHERE term_id = c.term_id AND mention_id = c.mention_id ORDER BY weight DESC, partner_id LIMIT 3
                ) AS p JOIN mention m ON m.id = p.partner_id) AS s ON true
            ORDER BY c.term_id, c.mention_id
            """,
            "DROP TABLE mention_count_v4",
            "DELETE FROM mention_pair WHERE mention_id > partner_id",
            "DROP INDEX mention_pair_by_weight",
            """
            ALTER TABLE mention_pair DROP CONSTRAINT mention_pair_term_id_fkey,
                DROP CONSTRAINT mention_pair_mention_id_fkey, DROP CONSTRAINT mention_pair_partner_id_fkey
            """,
        ]
}
