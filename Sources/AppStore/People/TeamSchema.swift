import Posts

/// The tables of people, their Recents, sign-ins, tokens, failed sign-ins and the audit trail, in SQLite (migration
/// `v10`) and PostgreSQL (`v7`). Person and token ids are never reused: Recents, tracking and the audit trail name
/// them, and a new person must not inherit a removed one's.
enum TeamSchema {
    static let sqlite = """
        -- Whose Recents hold each term: a person's id, or 0 for the owner (a Smashtag with no people added, and every
        -- search recorded before there were people). `searched` orders one holder's terms. A term stays while a
        -- holder's Recents or its tracking holds it.
        CREATE TABLE recentHolder (
            holderID INTEGER NOT NULL,
            termID INTEGER NOT NULL REFERENCES recent(id),
            searched INTEGER NOT NULL,
            PRIMARY KEY (holderID, termID)
        ) WITHOUT ROWID;
        CREATE INDEX recentHolder_by_searched ON recentHolder(holderID, searched);
        CREATE INDEX recentHolder_by_term ON recentHolder(termID);
        INSERT INTO recentHolder(holderID, termID, searched) SELECT 0, id, searched FROM recent;
        -- Who tracked the term (a holder's id): besides an admin, the one who may untrack it.
        ALTER TABLE tracked ADD COLUMN trackedBy INTEGER NOT NULL DEFAULT 0;
        -- `key`: the name lower-cased, unique; `passwordHash`: bcrypt's.
        CREATE TABLE person (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            key TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            passwordHash TEXT NOT NULL,
            created INTEGER NOT NULL
        );
        -- A signed-in browser: the SHA-256 of its cookie's session id, never the id.
        CREATE TABLE signIn (
            idHash TEXT PRIMARY KEY,
            personID INTEGER NOT NULL REFERENCES person(id),
            created INTEGER NOT NULL,
            expires INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX signIn_by_person ON signIn(personID);
        -- A script's token: the SHA-256 of the token, never the token; `prefix` names it in lists; its role is at most
        -- its person's.
        CREATE TABLE token (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            prefix TEXT NOT NULL UNIQUE,
            hash TEXT NOT NULL UNIQUE,
            personID INTEGER NOT NULL REFERENCES person(id),
            role TEXT NOT NULL,
            created INTEGER NOT NULL,
            expires INTEGER,
            lastUsed INTEGER
        );
        CREATE INDEX token_by_person ON token(personID);
        -- Failed sign-ins, by `name:…` and by `address:…`, for the wait after too many.
        CREATE TABLE signInFailure (key TEXT NOT NULL, at INTEGER NOT NULL);
        CREATE INDEX signInFailure_by_key ON signInFailure(key, at);
        -- Every write: when (milliseconds since 1970), who, what, its details, from which address.
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at INTEGER NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL,
            address TEXT NOT NULL
        );
        CREATE INDEX audit_by_at ON audit(at);
        """

    static let postgres = [
        """
        CREATE TABLE recent_holder (
            holder_id bigint NOT NULL,
            term_id bigint NOT NULL REFERENCES recent (id) ON DELETE CASCADE,
            searched bigint NOT NULL,
            PRIMARY KEY (holder_id, term_id)
        )
        """,
        "CREATE INDEX recent_holder_by_searched ON recent_holder (holder_id, searched)",
        "CREATE INDEX recent_holder_by_term ON recent_holder (term_id)",
        "INSERT INTO recent_holder (holder_id, term_id, searched) SELECT 0, id, searched FROM recent",
        "ALTER TABLE tracked ADD COLUMN tracked_by bigint NOT NULL DEFAULT 0",
        """
        CREATE TABLE person (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            key text NOT NULL UNIQUE,
            name text NOT NULL,
            role text NOT NULL,
            password_hash text NOT NULL,
            created bigint NOT NULL
        )
        """,
        """
        CREATE TABLE sign_in (
            id_hash text PRIMARY KEY,
            person_id bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
            created bigint NOT NULL,
            expires bigint NOT NULL
        )
        """,
        "CREATE INDEX sign_in_by_person ON sign_in (person_id)",
        """
        CREATE TABLE token (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            prefix text NOT NULL UNIQUE,
            hash text NOT NULL UNIQUE,
            person_id bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
            role text NOT NULL,
            created bigint NOT NULL,
            expires bigint,
            last_used bigint
        )
        """,
        "CREATE INDEX token_by_person ON token (person_id)",
        "CREATE TABLE sign_in_failure (key text NOT NULL, at bigint NOT NULL)",
        "CREATE INDEX sign_in_failure_by_key ON sign_in_failure (key, at)",
        """
        CREATE TABLE audit (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at bigint NOT NULL,
            actor text NOT NULL,
            action text NOT NULL,
            detail text NOT NULL,
            address text NOT NULL
        )
        """,
        "CREATE INDEX audit_by_at ON audit (at)",
    ]
}
