import GRDB
import Posts
import Twitter

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Inserts posts inside one write transaction, with prepared statements reused and ids of users and terms
/// remembered for the transaction.
struct PostWriter {
    enum Outcome { case inserted, duplicate, badID }

    let db: Database
    private var users: [String: StoredUser] = [:]
    private var termIDs: [String: Int64] = [:]

    init(db: Database) {
        self.db = db
    }

    mutating func insert(_ post: Post) throws -> Outcome {
        guard let id = try orderKey(of: post) else { return post.network == .twitter ? .badID : .duplicate }
        let author = try user(post.author)
        let reposter = try post.repostedBy.map { try user($0) }
        let isX = post.network == .twitter
        try statement(
            """
            INSERT OR IGNORE INTO post(id, created, authorID, reposterID, text, quotedID, inReplyToID, displayStart,
                network, postID, url, contentWarning, isSensitive, card, language, quoted)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).execute(arguments: [
            id, post.created.millisecondsSince1970, author.id, reposter?.id, post.text, post.quotedID, post.inReplyToID,
            post.displayStart,
            post.network.code, isX ? nil : post.id, isX ? nil : post.url, post.contentWarning, post.isSensitive,
            post.card.map(PublicJSON.text), post.language, post.quoted?.codableJSON,
        ])
        guard db.changesCount > 0 else { return .duplicate }
        try insertMentions(post.mentions, of: id)
        try insertMedia(post.media, of: id)
        try index(IndexEntry(post, alsoFrom: (reposter ?? author).resolvedHandle), of: id)
        return .inserted
    }

    /// An X post's own id; for another network's, a free key made from its time (`OrderKey`), or nil when the
    /// corpus holds the post already.
    private func orderKey(of post: Post) throws -> Int64? {
        guard post.network != .twitter else { return TweetID.isValid(post.id) ? Int64(post.id) : nil }
        let known = try Int64.fetchOne(
            statement("SELECT id FROM post WHERE network = ? AND postID = ?"), arguments: [post.network.code, post.id])
        guard known == nil else { return nil }
        var key = OrderKey.of(post)
        while try Int64.fetchOne(statement("SELECT 1 FROM post WHERE id = ?"), arguments: [key]) != nil { key += 1 }
        return key
    }

    private func insertMentions(_ mentions: [Mention], of id: Int64) throws {
        let insert = try statement(
            """
            INSERT INTO mention(postKey, position, kind, start, end, expandedURL, display) VALUES (?, ?, ?, ?, ?, \
            ?, ?)
            """
        )
        for (position, mention) in mentions.enumerated() {
            try insert.execute(arguments: [
                id, position, mention.kind.code, mention.range.lowerBound, mention.range.upperBound,
                mention.expandedURL, mention.display,
            ])
        }
    }

    private func insertMedia(_ media: [MediaItem], of id: Int64) throws {
        let insert = try statement(
            """
            INSERT INTO media(postKey, position, url, aspectRatio, kind, playURL, alt, duration) VALUES (?, ?, ?, ?, \
            ?, ?, ?, ?)
            """)
        for (position, item) in media.enumerated() {
            try insert.execute(arguments: [
                id, position, item.url, item.aspectRatio, item.kind.rawValue, item.playURL, item.alt, item.duration,
            ])
        }
    }

    private mutating func index(_ entry: IndexEntry, of id: Int64) throws {
        let post = try statement("INSERT OR IGNORE INTO posting(termID, postKey) VALUES (?, ?)")
        for term in entry.terms { try post.execute(arguments: [try termID(term), id]) }
        try statement("INSERT INTO word(rowid, words) VALUES (?, ?)").execute(arguments: [id, entry.words])
    }

    /// Removes a stored post and its index entries: the postings and words it was indexed by are made again from
    /// it (the word index keeps no copy of its text, so a row is removed by giving its words back); its mentions
    /// and media go with it (`ON DELETE CASCADE`).
    /// False when the corpus does not hold the post.
    mutating func remove(id: String) throws -> Bool {
        guard let key = try OrderKeys.key(of: id, db) else { return false }
        return try remove(key: key)
    }

    /// The same, by order key.
    mutating func remove(key: Int64) throws -> Bool {
        guard let post = try PostLoader(db: db).posts([key])[key] else { return false }
        try remove(post, key: key)
        return true
    }

    private mutating func remove(_ post: Post, key: Int64) throws {
        // Loaded, a resolved Bluesky author is named by handle; the post is also indexed by the DID it came with.
        let storedName = try String.fetchOne(
            statement(
                """
                SELECT a.handle FROM post p JOIN author a ON a.id = coalesce(p.reposterID, p.authorID) WHERE p.id = ?
                """), arguments: [key])
        let entry = IndexEntry(post, alsoFrom: storedName)
        let unpost = try statement(
            "DELETE FROM posting WHERE termID = (SELECT id FROM term WHERE key = ?) AND postKey = ?")
        for term in entry.terms { try unpost.execute(arguments: [term, key]) }
        try statement("INSERT INTO word(word, rowid, words) VALUES ('delete', ?, ?)").execute(arguments: [
            key, entry.words,
        ])
        try statement("DELETE FROM post WHERE id = ?").execute(arguments: [key])
    }

    /// A stored user: its row, and the handle a DID-named author resolved to.
    struct StoredUser {
        let id: Int64
        let resolvedHandle: String?
    }

    /// The newest name and picture win: a user's profile changes over time. An author known only by DID is added
    /// to be resolved, and never overwrites what resolving found.
    private mutating func user(_ user: Author) throws -> StoredUser {
        let key = user.handle.lowercased()
        if let stored = users[key] { return stored }
        let row = try Row.fetchOne(
            statement(
                user.isUnresolved
                    ? """
                    INSERT INTO author(handle, name, profileImageURL, pending) VALUES (?, ?, ?, 1)
                    ON CONFLICT(handle) DO UPDATE SET pending = pending
                    RETURNING id, resolvedHandle
                    """
                    : """
                    INSERT INTO author(handle, name, profileImageURL) VALUES (?, ?, ?)
                    ON CONFLICT(handle) DO UPDATE SET name = excluded.name,
                        profileImageURL = coalesce(excluded.profileImageURL, profileImageURL)
                    RETURNING id, resolvedHandle
                    """), arguments: [user.handle, user.name, user.profileImageURL])
        guard let row else { throw DatabaseError(message: "no id for user \(user.handle)") }
        let stored = StoredUser(id: row["id"], resolvedHandle: row["resolvedHandle"])
        users[key] = stored
        return stored
    }

    mutating func termID(_ key: String) throws -> Int64 {
        if let id = termIDs[key] { return id }
        if let id = try Int64.fetchOne(statement("SELECT id FROM term WHERE key = ?"), arguments: [key]) {
            termIDs[key] = id
            return id
        }
        try statement("INSERT INTO term(key) VALUES (?)").execute(arguments: [key])
        termIDs[key] = db.lastInsertedRowID
        return db.lastInsertedRowID
    }

    func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }
}
