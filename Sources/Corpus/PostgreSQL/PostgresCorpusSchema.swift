import PostgresSupport

/// The corpus's tables in PostgreSQL, beside the app store's in the same database (`corpus_` names them apart),
/// recorded in `corpus_migration`.
///
/// Why this design: every operator and every word of the query language is one posting list, `corpus_posting`
/// keyed by (term, post key), so a page is an ordered walk down one B-tree per term that stops as soon as the page
/// is full (`Index Only Scan Backward … LIMIT`): the cost of `#tag`, `from:`, a word or an `OR` of them does not grow
/// with how many posts match. A `tsvector` with a GIN index answers *whether* a post matches but not in key order,
/// so a page of a common word would sort every match first (measured in PERFORMANCE.md). A phrase walks its words'
/// lists together and is checked against `words`, the post's words as the tokenizer cut them. The post itself is its
/// stored JSON (`Post.storedJSON`), read whole in one row; its people are rows of `corpus_author`, so a resolved
/// Bluesky profile shows on every post at once. No foreign keys: `COPY` checks none row by row, and the writer
/// keeps the tables in step in one transaction.
enum PostgresCorpusSchema {
    static let migrator = PostgresMigrator(
        table: "corpus_migration", lock: .corpusMigrations, versions: versions)

    static let versions: [PostgresMigrator.Version] = [
        (
            "corpus v1: posts, authors, posting lists",
            [
                """
                CREATE TABLE corpus_author (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    -- As the post came with it: a DID for a Bluesky author until resolved_handle is known.
                    handle text NOT NULL,
                    name text NOT NULL,
                    picture text,
                    resolved_handle text,
                    pending boolean NOT NULL DEFAULT false
                )
                """,
                "CREATE UNIQUE INDEX corpus_author_by_handle ON corpus_author (lower(handle))",
                "CREATE INDEX corpus_author_pending ON corpus_author (id) WHERE pending",
                """
                CREATE TABLE corpus_post (
                    -- The order key every list and page uses: an X post's own id, another network's made from its time.
                    key bigint PRIMARY KEY,
                    network smallint NOT NULL,
                    -- Another network's own id; null for X, whose id is the key.
                    post_id text,
                    author_id bigint NOT NULL,
                    reposter_id bigint,
                    json text NOT NULL,
                    words text NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX corpus_post_by_id ON corpus_post (post_id, network) WHERE post_id IS NOT NULL",
                "CREATE INDEX corpus_post_by_author ON corpus_post (author_id) WHERE network <> 0",
                """
                CREATE TABLE corpus_term (
                    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    -- `#tag`, `@user`, `from:user`, `filter:…` (lower-cased), or a word as the tokenizer cut it.
                    key text NOT NULL UNIQUE
                )
                """,
                """
                CREATE TABLE corpus_posting (
                    term_id integer NOT NULL,
                    post_key bigint NOT NULL,
                    PRIMARY KEY (term_id, post_key)
                )
                """,
                "CREATE TABLE corpus_info (key text PRIMARY KEY, value text NOT NULL)",
            ]
        ),
        // An author who shows their posts only to people signed in (`Post.signedInOnly`), as their resolved profile
        // says: the live index's posts carry no labels. A post that says so keeps it in its own JSON.
        ("corpus v2: authors who ask for sign-in", ["ALTER TABLE corpus_author ADD COLUMN signed_in_only boolean"]),
        // When a recheck last found the post still published, as on SQLite (v11).
        ("corpus v3: rechecks", ["ALTER TABLE corpus_post ADD COLUMN checked bigint"]),
        // Replies found by the post they answer and by `filter:replies`, as on SQLite (v12): posting lists of their
        // own, made for the replies stored before from their JSON's `inReplyToID`.
        (
            "corpus v4: replies",
            [
                """
                CREATE TEMPORARY TABLE reply_term ON COMMIT DROP AS
                SELECT key AS post_key, 'reply:' || (CASE network WHEN 0 THEN 'twitter' WHEN 1 THEN 'mastodon' \
                ELSE 'bluesky' END) || ':' || (json::jsonb ->> 'inReplyToID') AS term
                FROM corpus_post WHERE json LIKE '%"inReplyToID"%' AND (json::jsonb ->> 'inReplyToID') IS NOT NULL
                """,
                """
                INSERT INTO corpus_term (key)
                SELECT DISTINCT term FROM reply_term UNION SELECT 'filter:replies' FROM reply_term
                ON CONFLICT (key) DO NOTHING
                """,
                """
                INSERT INTO corpus_posting (term_id, post_key)
                SELECT t.id, r.post_key FROM reply_term r JOIN corpus_term t ON t.key IN (r.term, 'filter:replies')
                ON CONFLICT DO NOTHING
                """,
            ]
        ),
    ]
}
