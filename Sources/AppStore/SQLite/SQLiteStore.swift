import GRDB
import PostgresSupport
import Posts
import SQLiteSupport
import ServiceLifecycle

/// The app's store in SQLite (the embedded default): a file in the data directory, in WAL mode with a busy timeout
/// so the server and the CLI share it, or memory for tests.
struct SQLiteStore: StoreCore {
    let writer: any DatabaseWriter
    /// Changes with every commit, from this process or another: what remembered states are valid for.
    let generations: DatabaseGeneration
    /// Change signals for live pages, shared by all of them.
    let signals: ChangeSignals
    /// Where searches record their pages: many requests' writes, one commit.
    let groupCommit: GroupCommit
    /// Mention ids met in committed writes, so counting looks up only new hashtags and users.
    let knownMentions = KnownMentions()
    /// The posts of terms pushed out of Recents, deleted in batches.
    let orphans: OrphanPosts
    /// For the short reads every request makes (whom its sign-in names): on the calling thread, not the three thread
    /// hops of the pool's reads. Nil in memory.
    let inline: InlineReaders?

    /// Foreign keys are declared but not enforced (since v5): a new term's page writes about a hundred and fifty
    /// child rows, each of which SQLite would check against its parents, and `remove` deletes a term's rows itself.
    static func open(at path: String, orphanAllowance: Int = OrphanPosts.defaultAllowance) async throws -> SQLiteStore {
        try await SQLiteFile.offThePool {
            try SQLiteStore(
                writer: SQLiteFile.pool(at: path, enforcingForeignKeys: false), path: path,
                orphanAllowance: orphanAllowance)
        }
    }

    static func inMemory(orphanAllowance: Int = OrphanPosts.defaultAllowance) throws -> SQLiteStore {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        return try SQLiteStore(
            writer: DatabaseQueue(configuration: configuration), path: nil, orphanAllowance: orphanAllowance)
    }

    /// `path`: the file, whose other processes' writes live pages watch; nil in memory.
    private init(writer: any DatabaseWriter, path: String?, orphanAllowance: Int) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
        try writer.write(OrphanPosts.deleteAll)
        orphans = OrphanPosts(allowance: orphanAllowance)
        generations = try DatabaseGeneration(writer: writer, path: path)
        signals = DatabaseChanges.signals(writer: writer, generation: path == nil ? nil : generations)
        groupCommit = GroupCommit(writer: writer)
        inline = try path.map { try InlineReaders(path: $0) }
    }

    func generation() throws -> StoreGeneration? {
        try generations.current()
    }

    func changes(of key: String) -> AsyncStream<Void> {
        signals.subscribe(to: key)
    }

    func close() async {}

    func isMigrated() async throws -> Bool {
        try await writer.read { db in try Self.migrator.hasCompletedMigrations(db) }
    }

    /// A file needs no connection kept open beside the app.
    var service: (any Service)? { nil }

    /// A SQLite file has one server.
    func whileElected(_ role: ElectedRole, _ work: @escaping @Sendable () async throws -> Void) async throws {
        try await work()
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Where each term's session stands: the follow-on requests of what was fetched so far, as JSON.
            try db.execute(
                sql: """
                    CREATE TABLE searchSession (
                        term TEXT PRIMARY KEY,
                        newer TEXT NOT NULL,
                        older TEXT
                    )
                    """)
        }
        migrator.registerMigration("v2: recents and popularity") { db in
            try db.execute(
                sql: """
                    DROP TABLE searchSession;
                    -- key: the term trimmed, spaces collapsed, lower-cased; term: its newest spelling; searched: an
                    -- ever-increasing sequence, so the order never ties. A search session's follow-on requests are \
                    JSON.
                    CREATE TABLE recent (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        term TEXT NOT NULL,
                        searched INTEGER NOT NULL,
                        newer TEXT,
                        older TEXT
                    );
                    CREATE INDEX recent_by_searched ON recent(searched);
                    -- Which tweets were counted under which term: a tweet is counted once per term, ever.
                    CREATE TABLE countedTweet (
                        termID INTEGER NOT NULL REFERENCES recent(id) ON DELETE CASCADE,
                        tweetID INTEGER NOT NULL,
                        PRIMARY KEY (termID, tweetID)
                    ) WITHOUT ROWID;
                    CREATE INDEX countedTweet_by_tweet ON countedTweet(tweetID);
                    -- Hashtags (kind 0) and users (kind 1), unique case-insensitively by key (`#tag`, `@user`
                    -- lower-cased), shown as first seen.
                    CREATE TABLE mention (
                        id INTEGER PRIMARY KEY,
                        kind INTEGER NOT NULL,
                        key TEXT NOT NULL UNIQUE,
                        shown TEXT NOT NULL
                    );
                    CREATE TABLE mentionCount (
                        termID INTEGER NOT NULL REFERENCES recent(id) ON DELETE CASCADE,
                        mentionID INTEGER NOT NULL REFERENCES mention(id),
                        count INTEGER NOT NULL,
                        PRIMARY KEY (termID, mentionID)
                    ) WITHOUT ROWID;
                    -- The popularity table's query: a term's mentions counted more than once, by count.
                    CREATE INDEX mentionCount_by_count ON mentionCount(termID, count);
                    -- The tweets that were counted, for pages that show a tweet again (JSON of Post).
                    CREATE TABLE storedTweet (
                        id INTEGER PRIMARY KEY,
                        tweet TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3: posts of every network") { db in
            try db.execute(
                sql: """
                    -- A post is keyed by its network (NetworkCode) and its id there; `id` is only the store's own
                    -- reference, so the counts stay one integer per (term, post). Tweets stored by earlier releases \
                    keep
                    -- their tweet id as that reference. `created`: milliseconds since 1970, for pages ordered by time.
                    CREATE TABLE post (
                        id INTEGER PRIMARY KEY,
                        network INTEGER NOT NULL,
                        postID TEXT NOT NULL,
                        created INTEGER NOT NULL,
                        json TEXT NOT NULL
                    );
                    CREATE UNIQUE INDEX post_by_key ON post(network, postID);
                    INSERT INTO post(id, network, postID, created, json)
                        SELECT id, 0, CAST(id AS TEXT),
                            CAST(round((coalesce(json_extract(tweet, '$.created'), 0) + 978307200) * 1000) AS \
                    INTEGER), tweet
                        FROM storedTweet;
                    CREATE TABLE countedPost (
                        termID INTEGER NOT NULL REFERENCES recent(id) ON DELETE CASCADE,
                        postRef INTEGER NOT NULL,
                        PRIMARY KEY (termID, postRef)
                    ) WITHOUT ROWID;
                    INSERT INTO countedPost(termID, postRef) SELECT termID, tweetID FROM countedTweet;
                    CREATE INDEX countedPost_by_post ON countedPost(postRef);
                    DROP TABLE countedTweet;
                    DROP TABLE storedTweet;
                    """)
        }
        migrator.registerMigration("v4: trends") { db in
            try db.execute(
                sql: """
                    -- How many of a term's posts named a mention in each hour (hours since 1970, UTC, by the posts' own
                    -- times): a mention's hours add up to its count, and its series is one range of the primary key.
                    CREATE TABLE mentionTrend (
                        termID INTEGER NOT NULL REFERENCES recent(id) ON DELETE CASCADE,
                        mentionID INTEGER NOT NULL REFERENCES mention(id),
                        hour INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (termID, mentionID, hour)
                    ) WITHOUT ROWID;
                    -- A term's time span and its last few hours, for every mention at once (the sparklines).
                    CREATE INDEX mentionTrend_by_hour ON mentionTrend(termID, hour);
                    """)
            try TrendBackfill.run(db)
        }
        migrator.registerMigration("v5: lean counting") { db in
            try db.execute(
                sql: """
                    -- The term's time span (the hours of its earliest and latest counted mention), kept as pages are
                    -- counted: what the trends' by-hour index answered, at the price of an index entry per trend row.
                    ALTER TABLE recent ADD COLUMN earliestHour INTEGER;
                    ALTER TABLE recent ADD COLUMN latestHour INTEGER;
                    UPDATE recent SET (earliestHour, latestHour) = (SELECT min(hour), max(hour) FROM mentionTrend \
                    WHERE termID = recent.id);
                    DROP INDEX mentionTrend_by_hour;
                    """)
        }
        migrator.registerMigration("v6: tracked terms") { db in
            try db.execute(
                sql: """
                    -- Terms collected on a schedule; times in milliseconds since 1970. A term here is never pushed out
                    -- of Recents. `sources`: comma-separated names, NULL for every source the server offers.
                    CREATE TABLE tracked (
                        termID INTEGER PRIMARY KEY REFERENCES recent(id),
                        every INTEGER NOT NULL,
                        sources TEXT,
                        backfill INTEGER NOT NULL,
                        since INTEGER NOT NULL,
                        due INTEGER NOT NULL,
                        leaseUntil INTEGER,
                        fetched INTEGER
                    );
                    CREATE INDEX tracked_by_due ON tracked(due);
                    -- Where each source of a tracked term stands: positions as JSON, the last failure.
                    CREATE TABLE trackedSource (
                        termID INTEGER NOT NULL REFERENCES tracked(termID),
                        source TEXT NOT NULL,
                        newer TEXT,
                        older TEXT,
                        error TEXT,
                        retryAt INTEGER,
                        failures INTEGER NOT NULL DEFAULT 0,
                        gap TEXT,
                        PRIMARY KEY (termID, source)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v7: co-mentions") { db in
            try db.execute(
                sql: """
                    -- How many of a term's posts named both mentions (co-mentions, a post's first 30 distinct ones).
                    -- Each pair is kept both ways, so a mention's partners are one range of the key, and its strongest
                    -- (ties: the mention met first) are the first entries of the weight index.
                    CREATE TABLE mentionPair (
                        termID INTEGER NOT NULL REFERENCES recent(id),
                        mentionID INTEGER NOT NULL REFERENCES mention(id),
                        partnerID INTEGER NOT NULL REFERENCES mention(id),
                        weight INTEGER NOT NULL,
                        PRIMARY KEY (termID, mentionID, partnerID)
                    ) WITHOUT ROWID;
                    CREATE INDEX mentionPair_by_weight ON mentionPair(termID, mentionID, weight DESC, partnerID);
                    -- The same by the hour of the posts' own times, once per pair (the lower id first): a time window
                    -- is one range of the key.
                    CREATE TABLE mentionPairHour (
                        termID INTEGER NOT NULL REFERENCES recent(id),
                        hour INTEGER NOT NULL,
                        mentionID INTEGER NOT NULL REFERENCES mention(id),
                        partnerID INTEGER NOT NULL REFERENCES mention(id),
                        weight INTEGER NOT NULL,
                        PRIMARY KEY (termID, hour, mentionID, partnerID)
                    ) WITHOUT ROWID;
                    """)
            try TrendBackfill.pairs(db)
        }
        migrator.registerMigration("v8: counted times") { db in
            // When each post was first counted under the term (milliseconds since 1970), for datasets; NULL for the
            // posts counted before this version, whose time nobody kept.
            try db.execute(sql: "ALTER TABLE countedPost ADD COLUMN counted INTEGER")
        }
        migrator.registerMigration("v9: one limit on a term") { db in
            // Terms longer than a term may be (earlier releases tracked any length) go with everything of theirs;
            // so does the tracking of terms deleted before `remove` took it along.
            let overlong = try Int64.fetchAll(
                db, sql: "SELECT id FROM recent WHERE length(term) > ?", arguments: [SearchTermKey.maximumLength])
            for id in overlong { try OrphanPosts.delete(remove(id, db), db) }
            try db.execute(
                sql: """
                    DELETE FROM trackedSource WHERE termID NOT IN (SELECT id FROM recent);
                    DELETE FROM tracked WHERE termID NOT IN (SELECT id FROM recent);
                    """)
        }
        migrator.registerMigration("v10: people") { db in
            try db.execute(sql: TeamSchema.sqlite)
        }
        migrator.registerMigration("v11: rechecks and retention") { db in
            // `checked`: when a recheck last found the post still published (milliseconds since 1970); NULL: never.
            // `expired`: when the post passed the keeping time and was reduced to what keeps it counted; NULL: whole.
            // No index: rechecks and retention walk the posts in the order they were stored, which the key gives.
            try db.execute(sql: "ALTER TABLE post ADD COLUMN checked INTEGER")
            try db.execute(sql: "ALTER TABLE post ADD COLUMN expired INTEGER")
        }
        migrator.registerMigration("v12: keeping times and consent rules") { db in
            // `keepDays`: how long a tracked term's posts are kept (`track --keep`); NULL: as the whole data's.
            // `keepForgets`: the older posts leave the term's counts too (`--forget-counts`).
            try db.execute(sql: "ALTER TABLE tracked ADD COLUMN keepDays INTEGER")
            try db.execute(sql: "ALTER TABLE tracked ADD COLUMN keepForgets INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: ConsentRuleSchema.sqlite)
        }
        migrator.registerMigration("v13: conversations") { db in
            try db.execute(sql: SQLiteInteractions.schema)
            try TrendBackfill.interactions(db)
        }
        migrator.registerMigration("v14: servers of a fleet") { db in
            for statement in PostServers.sqlite { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v15: counts added when read") { db in
            try db.execute(sql: PendingTallies.schema)
        }
        migrator.registerMigration("v16: terms never read") { db in
            try db.execute(sql: PendingTallies.writtenColumn)
        }
        return migrator
    }
}

extension AppDatabase {
    /// The SQLite store's writer, for the benchmarks that compare designs on the same file; nil on PostgreSQL.
    package var sqliteWriter: (any DatabaseWriter)? { (store as? SQLiteStore)?.writer }
}
