import PostgresSupport

/// The functions the PostgreSQL store records and counts with (migration `v5`), so that a search's page is one
/// statement: a round trip each for ten statements, and each planned again, had left PostgreSQL at a sixth of
/// SQLite's rate on new terms (docs/PERFORMANCE.md, issue 39). PL/pgSQL plans its statements once per connection.
///
/// A page arrives as arrays: its posts (`p_…`: network, id, time, JSON) and the tally of their mentions as
/// `MentionTally` makes it (`m_…`: kind, key, shown, count; `h_…`: a mention's place in `m_…` from 1, hour, count;
/// `q_…`: a pair's two places, hour, weight), so the counting rules stay in Swift, in one place for both stores.
/// Exactly once still rests on `counted_post`'s key: `INSERT … ON CONFLICT DO NOTHING RETURNING` names the posts this
/// transaction is the first to count under the term; when those are all of the page, its tally is added at once,
/// else their places are returned and the caller adds the tally of those posts (`smashtag_add_counts`). Rows that
/// concurrent writers both touch are taken in key order, so they queue instead of deadlocking.
enum PostgresFunctions {
    /// The error of a page partly counted under its term already, when the caller asked for all or nothing.
    static let partlyCounted = "SM001"

    static let statements = [
        partners, addCounts, countPage, remove, pushOut, deletePosts, deleteOrphans, record, countTerm,
    ]

    /// The functions that changed when each person got their own Recents (migration `v7`).
    static let byHolder = [pushOut, record]

    /// The functions that changed when interactions were counted (migration `v10`).
    static let withInteractions = [addCounts, subtractCounts, countPage, record, countTerm, remove]

    /// The function that changed when a holder's searches stopped waiting for each other (migration `v12`).
    static let withoutWaiting = [pushOut]

    /// The page's arrays as parameters, after the caller's own.
    private static let pageParameters = """
        p_network bigint[], p_post_id text[], p_created bigint[], p_json text[],
        m_kind bigint[], m_key text[], m_shown text[], m_count bigint[],
        h_mention bigint[], h_hour bigint[], h_count bigint[],
        q_first bigint[], q_second bigint[], q_hour bigint[], q_weight bigint[], \(interactionParameters)
        """

    /// A tally's interactions (`i_…`: kind, the places of the one who acted and the one acted on, hour, weight) and the
    /// posts replied to and quoted (`r_…`: kind, network, id, the place of their author or 0, count), after its pairs.
    private static let interactionParameters = """
        i_kind bigint[], i_source bigint[], i_target bigint[], i_hour bigint[], i_weight bigint[],
        r_kind bigint[], r_network bigint[], r_post text[], r_author bigint[], r_count bigint[]
        """

    /// The tally's arrays, as a function passes them on.
    private static let tallyArguments = """
        m_kind, m_key, m_shown, m_count, h_mention, h_hour, h_count, q_first, q_second, q_hour, q_weight,
                i_kind, i_source, i_target, i_hour, i_weight, r_kind, r_network, r_post, r_author, r_count
        """

    /// The signatures the functions had before interactions were counted (migration `v10` drops them).
    static let beforeInteractions: [String] = {
        let tally =
            "bigint[], text[], text[], bigint[], bigint[], bigint[], bigint[], bigint[], bigint[], bigint[], bigint[]"
        let page = "bigint[], text[], bigint[], text[], " + tally
        return [
            "smashtag_add_counts(bigint, boolean, \(tally))", "smashtag_subtract_counts(bigint, \(tally))",
            "smashtag_count_page(bigint, boolean, boolean, \(page))",
            "smashtag_record(text, text, bigint, text, text, boolean, boolean, bigint, text, \(page))",
            "smashtag_count_term(text, text, \(page))",
        ]
    }()

    /// A mention's strongest three partners (ids, weights and names, strongest first; ties to the mention met first,
    /// the lower id) once a page has named `p_new` with it, at their new weights: the three it had, unless one of
    /// those is named again or one named could overtake the third (a pair's weight only grows).
    static let partners = """
        CREATE FUNCTION smashtag_partners(
            p_ids bigint[], p_weights integer[], p_names text[],
            p_new_ids bigint[], p_new_weights integer[], p_new_names text[],
            OUT ids bigint[], OUT weights integer[], OUT names text[]
        ) LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN
            IF cardinality(p_new_ids) = 0 OR cardinality(p_ids) = 3 AND NOT p_ids && p_new_ids
                AND p_new_weights[1] < p_weights[3] THEN
                SELECT p_ids, p_weights, p_names INTO ids, weights, names;
                RETURN;
            END IF;
            SELECT coalesce(array_agg(i ORDER BY w DESC, i), '{}'), coalesce(array_agg(w ORDER BY w DESC, i), '{}'),
                coalesce(array_agg(n ORDER BY w DESC, i), '{}') INTO ids, weights, names
            FROM (SELECT i, max(w) AS w, min(n) AS n
                FROM unnest(p_ids || p_new_ids, p_weights || p_new_weights, p_names || p_new_names) AS u (i, w, n)
                GROUP BY i ORDER BY max(w) DESC, i LIMIT 3) AS t;
        END
        $$
        """

    /// The mentions (new ones numbered in the tally's order, which the caller sorts by key); the pairs, once each (the
    /// lower id first), in total and by the hour; the counts, each with the mention's three strongest partners; the
    /// hourly counts. A pair's weight only grows, so a mention's strongest three change only by the partners this
    /// page names: their new weights (the pairs' upsert returns them) are merged with the three the row held, and
    /// only when one of them could enter. A term added in this transaction (`p_new`) has no rows anyone else can
    /// write, so its rows are inserted plainly (`newOrNot`).
    static let addCounts = """
        CREATE FUNCTION smashtag_add_counts(
            p_term bigint, p_new boolean, m_kind bigint[], m_key text[], m_shown text[], m_count bigint[],
            h_mention bigint[], h_hour bigint[], h_count bigint[],
            q_first bigint[], q_second bigint[], q_hour bigint[], q_weight bigint[], \(interactionParameters)
        ) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            ids bigint[];
            names text[];
            pair_one bigint[];
            pair_other bigint[];
            pair_weight integer[];
        BEGIN
            -- A page whose posts name no one adds nothing (and the check below would find no ids for no keys).
            IF cardinality(m_key) = 0 THEN RETURN; END IF;
            INSERT INTO mention (kind, key, shown)
            SELECT k, y, s FROM unnest(m_kind, m_key, m_shown) WITH ORDINALITY AS m (k, y, s, i) ORDER BY i
            ON CONFLICT (key) DO NOTHING;
            SELECT array_agg(x.id ORDER BY m.i), array_agg(x.shown ORDER BY m.i) INTO ids, names
            FROM unnest(m_key) WITH ORDINALITY AS m (y, i) JOIN mention x ON x.key = m.y;
            IF cardinality(ids) IS DISTINCT FROM cardinality(m_key) THEN
                RAISE EXCEPTION 'a mention without its row';  -- none: mentions are never deleted
            END IF;
            \(newOrNot(
                """
                WITH totals AS (
                    INSERT INTO mention_pair (term_id, mention_id, partner_id, weight)
                    SELECT p_term, least(ids[a], ids[b]), greatest(ids[a], ids[b]), sum(w)
                    FROM unnest(q_first, q_second, q_weight) AS t (a, b, w) GROUP BY 2, 3 ORDER BY 2, 3
                """,
                conflict: """
                    ON CONFLICT (term_id, mention_id, partner_id)
                        DO UPDATE SET weight = mention_pair.weight + excluded.weight
                    """,
                then: """
                    RETURNING mention_id, partner_id, weight)
                SELECT array_agg(mention_id), array_agg(partner_id), array_agg(weight)
                INTO pair_one, pair_other, pair_weight FROM totals;
                """))
            \(newOrNot(
                """
                INSERT INTO mention_count AS c (term_id, mention_id, count, partner_ids, partner_weights, partner_names)
                SELECT p_term, ids[t.i], t.n, coalesce(s.top_ids, '{}'), coalesce(s.top_weights, '{}'),
                    coalesce(s.top_names, '{}')
                FROM unnest(m_count) WITH ORDINALITY AS t (n, i) LEFT JOIN (
                    SELECT m, array_agg(p ORDER BY r) AS top_ids, array_agg(w ORDER BY r) AS top_weights,
                        array_agg(names[array_position(ids, p)] ORDER BY r) AS top_names
                    FROM (SELECT m, p, w, row_number() OVER (PARTITION BY m ORDER BY w DESC, p) AS r FROM (
                            SELECT * FROM unnest(pair_one, pair_other, pair_weight) AS x (m, p, w)
                            UNION ALL SELECT * FROM unnest(pair_other, pair_one, pair_weight)) AS both_ways) AS ranked
                    WHERE r <= 3 GROUP BY m) AS s ON s.m = ids[t.i]
                -- A user only acted on (an interaction's end) has no count.
                WHERE t.n > 0
                ORDER BY 2
                """,
                conflict: """
                    ON CONFLICT (term_id, mention_id) DO UPDATE SET count = c.count + excluded.count,
                        (partner_ids, partner_weights, partner_names) = (
                            SELECT * FROM smashtag_partners(c.partner_ids, c.partner_weights, c.partner_names,
                                excluded.partner_ids, excluded.partner_weights, excluded.partner_names))
                    """))
            \(newOrNot(
                """
                INSERT INTO mention_trend (term_id, mention_id, hour, count)
                SELECT p_term, ids[m], h, c FROM unnest(h_mention, h_hour, h_count) AS t (m, h, c) ORDER BY 2, 3
                """,
                conflict: """
                    ON CONFLICT (term_id, mention_id, hour) DO UPDATE SET count = mention_trend.count + excluded.count
                    """))
            \(newOrNot(
                """
                INSERT INTO mention_pair_hour (term_id, hour, mention_id, partner_id, weight)
                SELECT p_term, h, least(ids[a], ids[b]), greatest(ids[a], ids[b]), w
                FROM unnest(q_first, q_second, q_hour, q_weight) AS t (a, b, h, w) ORDER BY 2, 3, 4
                """,
                conflict: """
                    ON CONFLICT (term_id, hour, mention_id, partner_id)
                        DO UPDATE SET weight = mention_pair_hour.weight + excluded.weight
                    """))
            \(addInteractions)
        END
        $$
        """

    /// The interactions added, each table in key order; `ON CONFLICT` always (few rows, and only some pages have any).
    private static let addInteractions = """
        INSERT INTO interaction_hour AS x (term_id, kind, hour, target_id, source_id, weight)
            SELECT p_term, k, h, ids[t], ids[s], w FROM unnest(i_kind, i_hour, i_target, i_source, i_weight)
                AS u (k, h, t, s, w) ORDER BY 2, 3, 4, 5
            ON CONFLICT (term_id, kind, hour, target_id, source_id) DO UPDATE SET weight = x.weight + excluded.weight;
            INSERT INTO interaction AS x (term_id, kind, target_id, source_id, weight)
            SELECT p_term, k, ids[t], ids[s], sum(w) FROM unnest(i_kind, i_target, i_source, i_weight)
                AS u (k, t, s, w) GROUP BY 2, 3, 4 ORDER BY 2, 3, 4
            ON CONFLICT (term_id, kind, target_id, source_id) DO UPDATE SET weight = x.weight + excluded.weight;
            INSERT INTO interaction_user AS x (term_id, kind, user_id, sent, received)
            SELECT p_term, k, person, sum(made), sum(got) FROM \(interactionUsers) GROUP BY 2, 3 ORDER BY 2, 3
            ON CONFLICT (term_id, kind, user_id)
                DO UPDATE SET sent = x.sent + excluded.sent, received = x.received + excluded.received;
            INSERT INTO interaction_post AS x (term_id, kind, network, post_id, author_id, count)
            SELECT p_term, k, n, i, ids[nullif(a, 0)], c FROM unnest(r_kind, r_network, r_post, r_author, r_count)
                AS u (k, n, i, a, c) ORDER BY 2, 3, 4
            ON CONFLICT (term_id, kind, network, post_id)
                DO UPDATE SET count = x.count + excluded.count, author_id = coalesce(x.author_id, excluded.author_id);
        """

    /// Each interaction's two users, as rows (k, person, made, got).
    private static let interactionUsers = """
        (SELECT k, ids[s] AS person, w AS made, 0 AS got FROM unnest(i_kind, i_source, i_weight) AS a (k, s, w)
                UNION ALL SELECT k, ids[t], 0, w FROM unnest(i_kind, i_target, i_weight) AS b (k, t, w)) AS e
        """

    /// The interactions taken back; rows at zero go (by statements of their own, which see the updates).
    private static let subtractInteractions = """
        UPDATE interaction_hour x SET weight = x.weight - u.w
            FROM unnest(i_kind, i_hour, i_target, i_source, i_weight) AS u (k, h, t, s, w)
            WHERE x.term_id = p_term AND x.kind = u.k AND x.hour = u.h AND x.target_id = ids[u.t]
                AND x.source_id = ids[u.s];
            DELETE FROM interaction_hour x USING unnest(i_kind, i_hour, i_target, i_source) AS u (k, h, t, s)
            WHERE x.term_id = p_term AND x.kind = u.k AND x.hour = u.h AND x.target_id = ids[u.t]
                AND x.source_id = ids[u.s] AND x.weight <= 0;
            UPDATE interaction x SET weight = x.weight - u.w
            FROM (SELECT k, ids[t] AS t, ids[s] AS s, sum(w) AS w FROM unnest(i_kind, i_target, i_source, i_weight)
                AS v (k, t, s, w) GROUP BY 1, 2, 3) AS u
            WHERE x.term_id = p_term AND x.kind = u.k AND x.target_id = u.t AND x.source_id = u.s;
            DELETE FROM interaction x USING unnest(i_kind, i_target, i_source) AS u (k, t, s)
            WHERE x.term_id = p_term AND x.kind = u.k AND x.target_id = ids[u.t] AND x.source_id = ids[u.s]
                AND x.weight <= 0;
            UPDATE interaction_user x SET sent = x.sent - u.made, received = x.received - u.got
            FROM (SELECT k, person, sum(made) AS made, sum(got) AS got FROM \(interactionUsers) GROUP BY 1, 2) AS u
            WHERE x.term_id = p_term AND x.kind = u.k AND x.user_id = u.person;
            DELETE FROM interaction_user x USING \(interactionUsers)
            WHERE x.term_id = p_term AND x.kind = e.k AND x.user_id = e.person AND x.sent <= 0 AND x.received <= 0;
            UPDATE interaction_post x SET count = x.count - u.c
            FROM unnest(r_kind, r_network, r_post, r_count) AS u (k, n, i, c)
            WHERE x.term_id = p_term AND x.kind = u.k AND x.network = u.n AND x.post_id = u.i;
            DELETE FROM interaction_post x USING unnest(r_kind, r_network, r_post) AS u (k, n, i)
            WHERE x.term_id = p_term AND x.kind = u.k AND x.network = u.n AND x.post_id = u.i AND x.count <= 0;
        """

    /// `smashtag_add_counts` taken back: the tally of posts removed from the term (deleted, forgotten, past their
    /// keeping time), as the same arrays. Counts, hours and pairs go down, rows at zero go, and a mention whose
    /// strongest three partners held one of the pairs that went down has its three read again from the pairs (a pair's
    /// weight only falls here, so no other mention's three can change). Migration `v8`.
    static let subtractCounts = """
        CREATE FUNCTION smashtag_subtract_counts(
            p_term bigint, m_kind bigint[], m_key text[], m_shown text[], m_count bigint[],
            h_mention bigint[], h_hour bigint[], h_count bigint[],
            q_first bigint[], q_second bigint[], q_hour bigint[], q_weight bigint[], \(interactionParameters)
        ) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            ids bigint[];
            zero_m bigint[];
            zero_q bigint[];
            zero_h integer[];
        BEGIN
            SELECT array_agg(x.id ORDER BY m.i) INTO ids
            FROM unnest(m_key) WITH ORDINALITY AS m (y, i) JOIN mention x ON x.key = m.y;
            IF cardinality(ids) IS DISTINCT FROM cardinality(m_key) THEN
                RAISE EXCEPTION 'a mention without its row';  -- none: mentions are never deleted
            END IF;
            -- Rows at zero are deleted by a statement of their own: a statement does not see what its own WITH
            -- updated, so deleting them beside the update would read their old values.
            WITH lowered AS (
                UPDATE mention_pair p SET weight = p.weight - t.w
                FROM (SELECT least(ids[a], ids[b]) AS m, greatest(ids[a], ids[b]) AS q, sum(w) AS w
                    FROM unnest(q_first, q_second, q_weight) AS u (a, b, w) GROUP BY 1, 2 ORDER BY 1, 2) AS t
                WHERE p.term_id = p_term AND p.mention_id = t.m AND p.partner_id = t.q
                RETURNING p.mention_id, p.partner_id, p.weight)
            SELECT array_agg(mention_id), array_agg(partner_id) INTO zero_m, zero_q FROM lowered WHERE weight <= 0;
            DELETE FROM mention_pair p USING unnest(zero_m, zero_q) AS z (m, q)
            WHERE p.term_id = p_term AND p.mention_id = z.m AND p.partner_id = z.q;
            WITH lowered AS (
                UPDATE mention_pair_hour p SET weight = p.weight - t.w
                FROM (SELECT u.h, least(ids[a], ids[b]) AS m, greatest(ids[a], ids[b]) AS q, u.w
                    FROM unnest(q_first, q_second, q_hour, q_weight) AS u (a, b, h, w) ORDER BY 1, 2, 3) AS t
                WHERE p.term_id = p_term AND p.hour = t.h AND p.mention_id = t.m AND p.partner_id = t.q
                RETURNING p.hour, p.mention_id, p.partner_id, p.weight)
            SELECT array_agg(hour), array_agg(mention_id), array_agg(partner_id) INTO zero_h, zero_m, zero_q
            FROM lowered WHERE weight <= 0;
            DELETE FROM mention_pair_hour p USING unnest(zero_h, zero_m, zero_q) AS z (h, m, q)
            WHERE p.term_id = p_term AND p.hour = z.h AND p.mention_id = z.m AND p.partner_id = z.q;
            WITH lowered AS (
                UPDATE mention_trend r SET count = r.count - t.c
                FROM (SELECT ids[m] AS m, h, c FROM unnest(h_mention, h_hour, h_count) AS u (m, h, c)
                    ORDER BY 1, 2) AS t
                WHERE r.term_id = p_term AND r.mention_id = t.m AND r.hour = t.h
                RETURNING r.mention_id, r.hour, r.count)
            SELECT array_agg(mention_id), array_agg(hour) INTO zero_m, zero_h FROM lowered WHERE count <= 0;
            DELETE FROM mention_trend r USING unnest(zero_m, zero_h) AS z (m, h)
            WHERE r.term_id = p_term AND r.mention_id = z.m AND r.hour = z.h;
            UPDATE mention_count c SET count = c.count - t.n
            FROM (SELECT ids[i] AS m, n FROM unnest(m_count) WITH ORDINALITY AS u (n, i) ORDER BY 1) AS t
            WHERE c.term_id = p_term AND c.mention_id = t.m;
            DELETE FROM mention_count c WHERE c.term_id = p_term AND c.mention_id = ANY(ids) AND c.count <= 0;
            -- The stale mentions' pairs in one pass over the term's (a pair is kept once, so a mention's partners
            -- are also where it is the partner, which no index reaches): a read per mention took most of the time.
            WITH touched AS (
                SELECT ids[a] AS m, ids[b] AS q FROM unnest(q_first, q_second) AS u (a, b)
                UNION SELECT ids[b], ids[a] FROM unnest(q_first, q_second) AS u (a, b)),
            stale AS (
                SELECT DISTINCT c.mention_id AS m FROM mention_count c JOIN touched t ON t.m = c.mention_id
                WHERE c.term_id = p_term AND t.q = ANY(c.partner_ids)),
            pairs AS (
                SELECT p.mention_id AS m, p.partner_id AS q, p.weight AS w FROM mention_pair p
                WHERE p.term_id = p_term AND p.mention_id IN (SELECT m FROM stale)
                UNION ALL SELECT p.partner_id, p.mention_id, p.weight FROM mention_pair p
                WHERE p.term_id = p_term AND p.partner_id IN (SELECT m FROM stale)),
            ranked AS (SELECT m, q, w, row_number() OVER (PARTITION BY m ORDER BY w DESC, q) AS r FROM pairs),
            top AS (
                SELECT k.m, array_agg(k.q ORDER BY k.r) AS ids, array_agg(k.w ORDER BY k.r) AS weights,
                    array_agg(x.shown ORDER BY k.r) AS names
                FROM ranked k JOIN mention x ON x.id = k.q WHERE k.r <= 3 GROUP BY k.m)
            UPDATE mention_count c SET partner_ids = coalesce(t.ids, '{}'),
                partner_weights = coalesce(t.weights, '{}'), partner_names = coalesce(t.names, '{}')
            FROM stale s LEFT JOIN top t ON t.m = s.m
            WHERE c.term_id = p_term AND c.mention_id = s.m;
            \(subtractInteractions)
        END
        $$
        """

    /// A statement that writes a term's rows, twice: plain for a term added in this transaction (`p_new`), with no
    /// check of the key first and no speculative insertion (a sixth of a new term's time), and with `conflict` for
    /// any other.
    private static func newOrNot(_ statement: String, conflict: String, then end: String = ";") -> String {
        """
        IF p_new THEN
            \(statement)
            \(end)
        ELSE
            \(statement)
            \(conflict)
            \(end)
        END IF;
        """
    }

    /// Stores the posts the store does not hold (in key order), marks them counted under the term and, when every
    /// post was new for it, adds the tally. NULL then; else the places (from 1) of the posts new for the term, or with
    /// `p_whole` (a statement that is its own transaction, which the caller cannot follow with the rest) the error
    /// `partlyCounted`, which undoes the statement. Each post is locked first (shared, by the hash of its key:
    /// `postLock`), so a batch deleting waiting posts passes over it until this transaction ends, and a post such a
    /// batch deleted just before is stored again. A row lock on each post did the same at three times the cost: its
    /// lock is written in the row, and posts that several pages share needed multi-transaction locks.
    static let countPage = """
        CREATE FUNCTION smashtag_count_page(p_term bigint, p_new boolean, p_whole boolean, \(pageParameters))
        RETURNS bigint[] LANGUAGE plpgsql AS $$
        DECLARE
            refs bigint[];
            fresh bigint[];
        BEGIN
            IF cardinality(p_post_id) = 0 THEN RETURN NULL; END IF;
            PERFORM pg_advisory_xact_lock_shared(\(postLock("n", "i"))) FROM unnest(p_network, p_post_id) AS p (n, i);
            INSERT INTO post (network, post_id, created, json)
            SELECT n, i, c, j FROM unnest(p_network, p_post_id, p_created, p_json) AS p (n, i, c, j)
            WHERE NOT EXISTS (SELECT 1 FROM post q WHERE q.network = p.n AND q.post_id = p.i) ORDER BY n, i
            ON CONFLICT (network, post_id) DO NOTHING;
            SELECT array_agg(q.id ORDER BY p.o) INTO refs
            FROM unnest(p_network, p_post_id) WITH ORDINALITY AS p (n, i, o)
                JOIN post q ON q.network = p.n AND q.post_id = p.i;
            IF cardinality(refs) IS DISTINCT FROM cardinality(p_post_id) THEN
                RAISE EXCEPTION 'a post without its row';  -- none: each is locked, and stored if it was not
            END IF;
            IF p_new THEN
                INSERT INTO counted_post (term_id, post_ref)
                SELECT DISTINCT p_term, r FROM unnest(refs) AS r ORDER BY 2;
            ELSE
                WITH counted AS (
                    INSERT INTO counted_post (term_id, post_ref) SELECT p_term, r FROM unnest(refs) AS r ORDER BY r
                    ON CONFLICT DO NOTHING RETURNING post_ref)
                SELECT coalesce(array_agg(o ORDER BY o), '{}') INTO fresh
                FROM unnest(refs) WITH ORDINALITY AS t (r, o) WHERE r IN (SELECT post_ref FROM counted);
                IF cardinality(fresh) < cardinality(refs) THEN
                    IF p_whole THEN RAISE EXCEPTION 'a page partly counted' USING ERRCODE = '\(partlyCounted)'; END IF;
                    RETURN fresh;
                END IF;
            END IF;
            PERFORM smashtag_add_counts(p_term, p_new, \(tallyArguments));
            RETURN NULL;
        END
        $$
        """

    /// Drops the holder's untracked terms past `p_limit`, oldest first, from their Recents; those that no one else
    /// holds and nothing tracks then go with their counts. The holder's place for a term that another transaction
    /// has locked (pushing it out too, or searching the term again) is passed over, not waited for, and so is one
    /// searched again since it was read: every search of one holder met the same oldest terms, and waiting for each
    /// other's whole transactions made them one at a time (41 searches a second where 650 had been,
    /// `Benchmarks/research-scale/postgres-profile.sh`). Of the terms dropped, one whose own row another transaction
    /// has locked (searched again at that moment, or counted) is left, and so is one searched again since it was read
    /// (its `searched` changed): someone holds it again. Their posts wait in `orphan_post` for a batch
    /// (`smashtag_delete_orphans`); how many began to wait.
    static let pushOut = """
        CREATE FUNCTION smashtag_push_out(p_holder bigint, p_limit bigint, p_channel text) RETURNS bigint
        LANGUAGE plpgsql AS $$
        DECLARE
            beyond bigint[];
            held_since bigint[];
            ids bigint[];
            searched_at bigint[];
            gone bigint[];
            waiting bigint;
        BEGIN
            SELECT array_agg(term_id), array_agg(searched) INTO beyond, held_since FROM (
                SELECT h.term_id, h.searched FROM recent_holder h WHERE h.holder_id = p_holder
                    AND NOT EXISTS (SELECT 1 FROM tracked t WHERE t.term_id = h.term_id)
                ORDER BY h.searched DESC OFFSET p_limit) AS b;
            IF beyond IS NULL THEN RETURN 0; END IF;
            WITH dropped AS (
                DELETE FROM recent_holder h USING (
                    SELECT r.term_id FROM recent_holder r
                        JOIN unnest(beyond, held_since) AS b (term_id, searched)
                        ON r.term_id = b.term_id AND r.searched = b.searched
                    WHERE r.holder_id = p_holder ORDER BY r.term_id FOR UPDATE OF r SKIP LOCKED) AS l
                WHERE h.holder_id = p_holder AND h.term_id = l.term_id RETURNING h.term_id)
            SELECT array_agg(term_id) INTO beyond FROM dropped;
            IF beyond IS NULL THEN RETURN 0; END IF;
            SELECT array_agg(id), array_agg(searched) INTO ids, searched_at FROM recent r
            WHERE r.id = ANY(beyond) AND NOT EXISTS (SELECT 1 FROM recent_holder h WHERE h.term_id = r.id)
                AND NOT EXISTS (SELECT 1 FROM tracked t WHERE t.term_id = r.id);
            IF ids IS NULL THEN RETURN 0; END IF;
            WITH locked AS (
                SELECT r.id FROM recent r JOIN unnest(ids, searched_at) AS c (id, searched)
                    ON r.id = c.id AND r.searched = c.searched
                ORDER BY r.id FOR UPDATE OF r SKIP LOCKED)
            SELECT array_agg(id) INTO gone FROM locked;
            INSERT INTO orphan_post (post_ref) SELECT unnest(smashtag_remove(gone, p_channel));
            GET DIAGNOSTICS waiting = ROW_COUNT;
            RETURN waiting;
        END
        $$
        """

    /// Removes terms the caller has locked: their rows in every table, and their live pages told. The posts they
    /// counted.
    static let remove = """
        CREATE FUNCTION smashtag_remove(p_terms bigint[], p_channel text) RETURNS bigint[] LANGUAGE plpgsql AS $$
        DECLARE
            posts bigint[];
        BEGIN
            IF p_terms IS NULL THEN RETURN '{}'; END IF;
            WITH gone AS (DELETE FROM counted_post WHERE term_id = ANY(p_terms) RETURNING post_ref)
            SELECT coalesce(array_agg(DISTINCT post_ref), '{}') INTO posts FROM gone;
            DELETE FROM mention_count WHERE term_id = ANY(p_terms);
            DELETE FROM mention_trend WHERE term_id = ANY(p_terms);
            DELETE FROM mention_pair WHERE term_id = ANY(p_terms);
            DELETE FROM mention_pair_hour WHERE term_id = ANY(p_terms);
            DELETE FROM interaction WHERE term_id = ANY(p_terms);
            DELETE FROM interaction_hour WHERE term_id = ANY(p_terms);
            DELETE FROM interaction_user WHERE term_id = ANY(p_terms);
            DELETE FROM interaction_post WHERE term_id = ANY(p_terms);
            PERFORM pg_notify(p_channel, key) FROM recent WHERE id = ANY(p_terms);
            DELETE FROM recent WHERE id = ANY(p_terms);
            RETURN posts;
        END
        $$
        """

    /// Deletes those of `p_posts` that no term counts, and how many. It never waits: a post locked by a page being
    /// counted is left to wait in `orphan_post` for a later batch; a page that comes to a post locked here waits for
    /// this transaction, then finds the post gone and stores it again.
    static let deletePosts = """
        CREATE FUNCTION smashtag_delete_posts(p_posts bigint[]) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            locked bigint[];
            deleted bigint;
        BEGIN
            SELECT array_agg(id) INTO locked
            FROM (SELECT DISTINCT id, network, post_id FROM post WHERE id = ANY(p_posts)) AS p
            WHERE pg_try_advisory_xact_lock(\(postLock("p.network", "p.post_id")));
            INSERT INTO orphan_post (post_ref)
            SELECT DISTINCT t FROM unnest(p_posts) AS t WHERE t <> ALL(coalesce(locked, '{}'))
                AND EXISTS (SELECT 1 FROM post WHERE id = t);
            -- A new snapshot: every page counted before the locks were taken is seen.
            DELETE FROM post p WHERE p.id = ANY(locked)
                AND NOT EXISTS (SELECT 1 FROM counted_post c WHERE c.post_ref = p.id);
            GET DIAGNOSTICS deleted = ROW_COUNT;
            RETURN deleted;
        END
        $$
        """

    /// Takes up to `p_most` entries of `orphan_post` and deletes their posts that no term counts; how many it took.
    static let deleteOrphans = """
        CREATE FUNCTION smashtag_delete_orphans(p_most bigint) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            taken bigint[];
        BEGIN
            WITH batch AS (
                DELETE FROM orphan_post WHERE ctid IN (SELECT ctid FROM orphan_post LIMIT p_most) RETURNING post_ref)
            SELECT array_agg(post_ref) INTO taken FROM batch;
            IF taken IS NULL THEN RETURN 0; END IF;
            PERFORM smashtag_delete_posts(taken);
            RETURN cardinality(taken);
        END
        $$
        """

    /// The arguments of a post's advisory lock, from its network and id in SQL.
    static func postLock(_ network: String, _ id: String) -> String {
        "\(AdvisoryLock.postClassID), hashtext(\(network)::text || ':' || \(id))"
    }

    /// A search's page: unless `p_settle` finds it would change nothing (the term first in the holder's Recents with
    /// this spelling and these follow-on requests, every post counted), the term moves to the top of the holder's
    /// Recents, a term new to them pushes their oldest out, the page is counted and the term's live pages are told.
    static let record = """
        CREATE FUNCTION smashtag_record(
            p_key text, p_shown text, p_holder bigint, p_newer text, p_older text, p_settle boolean, p_whole boolean,
            p_limit bigint, p_channel text, \(pageParameters),
            OUT term_id bigint, OUT unchanged boolean, OUT fresh bigint[], OUT waiting bigint
        ) LANGUAGE plpgsql AS $$
        DECLARE
            held recent%ROWTYPE;
            held_found boolean;
            first boolean;
            counted bigint := 0;
            added boolean;
            holder_added boolean;
            searched_now bigint;
        BEGIN
            SELECT * INTO held FROM recent WHERE key = p_key;
            held_found := FOUND;
            IF held_found THEN
                SELECT count(*) INTO counted FROM unnest(p_network, p_post_id) AS k (n, i) WHERE EXISTS (
                    SELECT 1 FROM post p JOIN counted_post c ON c.post_ref = p.id AND c.term_id = held.id
                    WHERE p.network = k.n AND p.post_id = k.i);
                SELECT h.searched = (SELECT max(searched) FROM recent_holder WHERE holder_id = p_holder) INTO first
                FROM recent_holder h WHERE h.holder_id = p_holder AND h.term_id = held.id;
            END IF;
            unchanged := held_found AND p_settle AND held.term = p_shown
                AND held.newer IS NOT DISTINCT FROM p_newer AND held.older IS NOT DISTINCT FROM p_older
                AND coalesce(first, false) AND counted = coalesce(cardinality(p_post_id), 0);
            waiting := 0;
            IF unchanged THEN term_id := held.id; RETURN; END IF;
            -- Known partly counted before anything is written (`smashtag_count_page` still raises it for a page
            -- another server counts meanwhile).
            IF p_whole AND counted > 0 THEN
                RAISE EXCEPTION 'a page partly counted' USING ERRCODE = '\(partlyCounted)';
            END IF;
            -- Added, not updated: the new row version is not locked (xmax 0). Were another search to add it first,
            -- its rows would make this transaction's plain inserts fail, and it would run again.
            INSERT INTO recent (key, term, searched, newer, older)
            VALUES (p_key, p_shown, nextval('recent_searched'), p_newer, p_older)
            ON CONFLICT (key) DO UPDATE SET term = excluded.term, searched = excluded.searched,
                newer = excluded.newer, older = excluded.older
            RETURNING id, searched, xmax = 0 INTO term_id, searched_now, added;
            INSERT INTO recent_holder (holder_id, term_id, searched) VALUES (p_holder, term_id, searched_now)
            -- By the constraint's name: `term_id` is also this function's result.
            ON CONFLICT ON CONSTRAINT recent_holder_pkey DO UPDATE SET searched = excluded.searched
            RETURNING xmax = 0 INTO holder_added;
            IF holder_added THEN waiting := smashtag_push_out(p_holder, p_limit, p_channel); END IF;
            fresh := smashtag_count_page(term_id, added, p_whole, p_network, p_post_id, p_created, p_json,
                \(tallyArguments));
            PERFORM pg_notify(p_channel, p_key);
        END
        $$
        """

    /// A page counted under a term already in Recents, which keeps its place (a feed poll, the tracker). The term's
    /// row is locked first, as a search's is, so a push-out passes over it while the page is counted, or the page
    /// finds the term gone (`term_id` NULL).
    static let countTerm = """
        CREATE FUNCTION smashtag_count_term(
            p_key text, p_channel text, \(pageParameters), OUT term_id bigint, OUT fresh bigint[]
        ) LANGUAGE plpgsql AS $$
        BEGIN
            SELECT id INTO term_id FROM recent WHERE key = p_key FOR KEY SHARE;
            IF term_id IS NULL THEN RETURN; END IF;
            fresh := smashtag_count_page(term_id, false, false, p_network, p_post_id, p_created, p_json,
                \(tallyArguments));
            PERFORM pg_notify(p_channel, p_key);
        END
        $$
        """
}
