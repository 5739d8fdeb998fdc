import GRDB
import Logging

/// The corpus's tables, as the migrations below leave them (`v14`): `post` (every network's posts; `id` the order key,
/// an X post's own id; its `language` since `v7`, the quoted post since `v8`), `author` (`handle` as the post came
/// with it — a DID for a Bluesky author until resolved —, `resolvedHandle`), `mention` and `media` (by `postKey`),
/// `searchIndex` (FTS5: words, pairs and operator terms, see `SearchTokens`; a post's row its negated key), `info`.
/// Mention keywords are not stored: they are the text's slice at the mention's range.
enum SQLiteCorpusSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE user (
                        id INTEGER PRIMARY KEY,
                        screenName TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        name TEXT NOT NULL,
                        profileImageURL TEXT
                    );
                    -- id: the tweet's 64-bit id, which orders tweets by time; created: milliseconds since 1970.
                    CREATE TABLE tweet (
                        id INTEGER PRIMARY KEY,
                        created INTEGER NOT NULL,
                        userID INTEGER NOT NULL REFERENCES user(id),
                        retweeterID INTEGER REFERENCES user(id),
                        text TEXT NOT NULL,
                        quotedID TEXT,
                        inReplyToID TEXT
                    );
                    -- kind: 0 hashtag, 1 user, 2 url; start/end: Unicode scalars of the text.
                    CREATE TABLE mention (
                        tweetID INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        kind INTEGER NOT NULL,
                        start INTEGER NOT NULL,
                        end INTEGER NOT NULL,
                        expandedURL TEXT,
                        PRIMARY KEY (tweetID, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE media (
                        tweetID INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        url TEXT NOT NULL,
                        aspectRatio REAL NOT NULL,
                        kind TEXT NOT NULL,
                        PRIMARY KEY (tweetID, position)
                    ) WITHOUT ROWID;
                    -- What the operators look up: `#tag`, `@user`, `from:user` (lower-cased), \
                    `filter:media|links|retweets`.
                    CREATE TABLE term (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE
                    );
                    -- Each term's tweets, newest first by walking the primary key backwards.
                    CREATE TABLE posting (
                        termID INTEGER NOT NULL,
                        tweetID INTEGER NOT NULL,
                        PRIMARY KEY (termID, tweetID)
                    ) WITHOUT ROWID;
                    -- Words (see WordTokenizer), already cut and lower-cased: the ascii tokenizer only splits on \
                    spaces.
                    CREATE VIRTUAL TABLE word USING fts5(words, content='', columnsize=0, tokenize='ascii');
                    CREATE TABLE info (
                        key TEXT PRIMARY KEY,
                        value TEXT NOT NULL
                    );
                    """)
        }
        // What X shows of a post: links by their display form, a reply's text after its leading @names.
        migrator.registerMigration("v2: display text") { db in
            try db.execute(
                sql: """
                    ALTER TABLE mention ADD COLUMN display TEXT;
                    ALTER TABLE tweet ADD COLUMN displayStart INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        // Posts of other networks beside X's (Bluesky's live index): `id` stays the order key every index and page
        // uses (an X post's own id); another network's post gets one made the same way from its time
        // (`OrderKey`) and keeps its own id in `postID`. What X derives, others store: the permalink, a warning,
        // sensitive media, a link card (JSON of `LinkCard`).
        migrator.registerMigration("v3: posts of every network") { db in
            try db.execute(
                sql: """
                    ALTER TABLE tweet ADD COLUMN network INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE tweet ADD COLUMN postID TEXT;
                    ALTER TABLE tweet ADD COLUMN url TEXT;
                    ALTER TABLE tweet ADD COLUMN contentWarning TEXT;
                    ALTER TABLE tweet ADD COLUMN isSensitive INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE tweet ADD COLUMN card TEXT;
                    CREATE UNIQUE INDEX tweet_by_post ON tweet(network, postID) WHERE postID IS NOT NULL;
                    """)
        }
        // Bluesky's firehose names a post's author by DID only (kept in `screenName`); the profile is resolved later
        // into `handle`, `name` and the picture. `pending`: to resolve (new, or its identity changed). Another
        // network's posts are found by their author to move `from:` postings when a handle changes.
        migrator.registerMigration("v4: Bluesky profiles") { db in
            try db.execute(
                sql: """
                    ALTER TABLE user ADD COLUMN handle TEXT;
                    ALTER TABLE user ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX user_pending ON user(id) WHERE pending = 1;
                    CREATE INDEX tweet_by_author ON tweet(userID) WHERE network <> 0;
                    """)
        }
        // Media as their networks play them (issue 33): what plays (an MP4, an HLS playlist, a sound), the
        // description, the length; loops spelled `gifv` on every network.
        migrator.registerMigration("v5: playable media") { db in
            try db.execute(
                sql: """
                    ALTER TABLE media ADD COLUMN playURL TEXT;
                    ALTER TABLE media ADD COLUMN alt TEXT;
                    ALTER TABLE media ADD COLUMN duration REAL;
                    UPDATE media SET kind = 'gifv' WHERE kind = 'animated_gif';
                    """)
        }
        // The corpus holds every network's posts: tables and columns named for what they hold. Renames are changes to
        // the schema alone; the two partial indexes are made again under their new names (they hold the posts of
        // networks other than X only).
        migrator.registerMigration("v6: posts and authors") { db in
            try db.execute(
                sql: """
                    ALTER TABLE user RENAME COLUMN handle TO resolvedHandle;
                    ALTER TABLE user RENAME COLUMN screenName TO handle;
                    ALTER TABLE user RENAME TO author;
                    DROP INDEX user_pending;
                    CREATE INDEX author_pending ON author(id) WHERE pending = 1;
                    ALTER TABLE tweet RENAME COLUMN userID TO authorID;
                    ALTER TABLE tweet RENAME COLUMN retweeterID TO reposterID;
                    ALTER TABLE tweet RENAME TO post;
                    ALTER TABLE mention RENAME COLUMN tweetID TO postKey;
                    ALTER TABLE media RENAME COLUMN tweetID TO postKey;
                    ALTER TABLE posting RENAME COLUMN tweetID TO postKey;
                    DROP INDEX tweet_by_post;
                    CREATE UNIQUE INDEX post_by_network_id ON post(network, postID) WHERE postID IS NOT NULL;
                    DROP INDEX tweet_by_author;
                    CREATE INDEX post_by_author ON post(authorID) WHERE network <> 0;
                    """)
        }
        // The language a post is written in, as its network says (`Post.language`); unknown for what earlier releases
        // stored.
        migrator.registerMigration("v7: languages") { db in
            try db.execute(sql: "ALTER TABLE post ADD COLUMN language TEXT")
        }
        // The quoted post, whole, as its JSON (`Post.storedJSON`), when the data included it: what a dataset
        // imported gives back. A quoted post is not itself a result of any search, so it is not a row of its own.
        migrator.registerMigration("v8: quoted posts") { db in
            try db.execute(sql: "ALTER TABLE post ADD COLUMN quoted TEXT")
        }
        // One search index for everything a query names (issue 39): words, pairs of adjacent words and operator
        // terms as tokens of one FTS5 table (`SearchIndex`), so a whole query is one FTS5 expression. It replaces
        // the operator index (`term`, `posting`) and the index of words alone (`word`); every post is indexed again.
        migrator.registerMigration("v9: one search index") { db in
            // Filling the index loads posts with this build's loader, which reads these.
            try addSignedInOnly(db)
            try addInReplyToUser(db)
            try db.execute(sql: SearchIndex.create)
            try SearchIndex.fill(db, replies: false)
            try db.execute(sql: "DROP TABLE word; DROP TABLE posting; DROP TABLE term")
        }
        // An author who shows their posts only to people signed in (`Post.signedInOnly`): set by a post that says so
        // and by their resolved profile, so the live index's posts, which carry no labels, are shown as they ask.
        migrator.registerMigration("v10: authors who ask for sign-in") { db in
            try addSignedInOnly(db)
        }
        // When a recheck last found the post still published (milliseconds since 1970); NULL: never. No index: a
        // recheck walks the posts in key order.
        migrator.registerMigration("v11: rechecks") { db in
            try db.execute(sql: "ALTER TABLE post ADD COLUMN checked INTEGER")
        }
        // Replies found by the post they answer (a thread's replies) and by `filter:replies`: terms of the search
        // index, so a post's replies are one list walked in key order, as any term's.
        migrator.registerMigration("v12: replies") { db in
            try addInReplyToUser(db)  // indexing the replies loads them with this build's loader
            try SearchIndex.indexReplies(db)
        }
        // Whom a reply answers (`Post.inReplyToUser`), where the network says.
        migrator.registerMigration("v13: whom a reply answers") { db in
            try addInReplyToUser(db)
        }
        // The search index keyed by the negated order key, so a newest-first page is FTS5's forward walk (twice as
        // fast as its backward one); every post is indexed again.
        migrator.registerMigration(reindexing) { db in
            try SearchIndex.negateRows(db)
        }
        // Segments merged two at a time as posts arrive (`SegmentMerges`).
        migrator.registerMigration("v15: fewer segments") { db in
            try db.execute(sql: SearchIndex.mergeTwoAtATime)
        }
        return migrator
    }

    /// A log line before a migration indexes every post again: it takes minutes at millions of posts (10,000,000:
    /// seven), and whoever started the command would otherwise see nothing happen.
    static func announceReindexing(_ writer: any DatabaseWriter) throws {
        let posts = try writer.read { db -> Int in
            guard try db.tableExists("post"), try !migrator.appliedIdentifiers(db).contains(reindexing) else {
                return 0
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM post") ?? 0
        }
        guard posts > 0 else { return }
        Logger(label: "smashtag.corpus").notice(
            "Indexing the corpus's \(posts) posts again, once, so pages load newest first faster; this takes a while.")
    }

    /// The last migration that indexes every post again.
    private static let reindexing = "v14: newest first forwards"

    /// `post.inReplyToUser`, unless an earlier migration added it already.
    private static func addInReplyToUser(_ db: Database) throws {
        guard try !db.columns(in: "post").contains(where: { $0.name == "inReplyToUser" }) else { return }
        try db.execute(sql: "ALTER TABLE post ADD COLUMN inReplyToUser TEXT")
    }

    /// `author.signedInOnly`, unless an earlier migration added it already.
    private static func addSignedInOnly(_ db: Database) throws {
        guard try !db.columns(in: "author").contains(where: { $0.name == "signedInOnly" }) else { return }
        try db.execute(sql: "ALTER TABLE author ADD COLUMN signedInOnly INTEGER NOT NULL DEFAULT 0")
    }
}
