#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Corpus
import GRDB
import Posts
import Twitter

/// The app's own database (not the corpus): recents, search sessions, the popularity counts and the posts they
/// were counted from.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter
    /// Changes with every commit, from this process or another: what remembered states are valid for.
    let generation: DatabaseGeneration
    /// Change signals for live pages, shared by all of them.
    let changes: DatabaseChanges
    /// Where searches record their pages: many requests' writes, one commit.
    let groupCommit: GroupCommit

    /// Opens (creating if needed) the database at `path`, in WAL mode with a busy timeout, so the server and the
    /// CLI can share it.
    public static func open(at path: String) throws -> AppDatabase {
        try AppDatabase(writer: SQLiteFile.pool(at: path), path: path)
    }

    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(writer: DatabaseQueue(), path: nil)
    }

    /// `path`: the file, whose other processes' writes live pages watch; nil in memory.
    private init(writer: any DatabaseWriter, path: String?) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
        generation = try DatabaseGeneration(writer: writer, path: path)
        changes = DatabaseChanges(writer: writer, generation: path == nil ? nil : generation)
        groupCommit = GroupCommit(writer: writer)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Where each term's session stands: the follow-on requests of what was fetched so far, as JSON.
            try db.execute(sql: """
                CREATE TABLE searchSession (
                    term TEXT PRIMARY KEY,
                    newer TEXT NOT NULL,
                    older TEXT
                )
                """)
        }
        migrator.registerMigration("v2: recents and popularity") { db in
            try db.execute(sql: """
                DROP TABLE searchSession;
                -- key: the term trimmed, spaces collapsed, lower-cased; term: its newest spelling; searched: an
                -- ever-increasing sequence, so the order never ties. A search session's follow-on requests are JSON.
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
            try db.execute(sql: """
                -- A post is keyed by its network (NetworkCode) and its id there; `id` is only the store's own
                -- reference, so the counts stay one integer per (term, post). Tweets stored by earlier releases keep
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
                        CAST(round((coalesce(json_extract(tweet, '$.created'), 0) + 978307200) * 1000) AS INTEGER), tweet
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
            try db.execute(sql: """
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
        return migrator
    }
}

extension AppDatabase {
    /// A post fetched by some search and still counted under a term in Recents.
    public func storedPost(_ key: PostKey) async throws -> Post? {
        let json = try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT json FROM post WHERE network = ? AND postID = ?", arguments: [key.network.code, key.id])
        }
        return try json.map(Self.storedPost)
    }

    /// The posts fetched for `term` from the time of `newest` down to that of `oldest`, newest first: what a page of
    /// results holds.
    public func storedPosts(term: String, newest: Date, oldest: Date) async throws -> [Post] {
        let key = try SearchTermKey(term).key
        let rows = try await writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT p.json FROM recent r JOIN countedPost c ON c.termID = r.id JOIN post p ON p.id = c.postRef
                WHERE r.key = ? AND p.created BETWEEN ? AND ? ORDER BY p.created DESC, p.network, p.id DESC
                """, arguments: [key, oldest.millisecondsSince1970, newest.millisecondsSince1970])
        }
        return try rows.map(Self.storedPost)
    }

    /// A post as `PopularityCounter` stored it (`Post.codableJSON`).
    private static func storedPost(_ json: String) throws -> Post {
        try JSONDecoder().decode(Post.self, from: Data(json.utf8))
    }

    /// The stored posts' ids, by network then id (for tests and diagnostics).
    public func storedPostIDs() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT postID FROM post ORDER BY network, length(postID), postID")
        }
    }
}
