#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import Posts
import Twitter

/// Inserts tweets inside one write transaction, with prepared statements reused and ids of users and terms
/// remembered for the transaction.
struct TweetWriter {
    enum Outcome { case inserted, duplicate, badID }

    let db: Database
    private var userIDs: [String: Int64] = [:]
    private var termIDs: [String: Int64] = [:]

    init(db: Database) {
        self.db = db
    }

    mutating func insert(_ tweet: Post) throws -> Outcome {
        guard TweetID.isValid(tweet.id), let id = Int64(tweet.id) else { return .badID }
        let userID = try self.userID(tweet.user)
        let retweeterID = try tweet.repostedBy.map { try self.userID($0) }
        try statement("""
            INSERT OR IGNORE INTO tweet(id, created, userID, retweeterID, text, quotedID, inReplyToID, displayStart)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id, tweet.created.millisecondsSince1970, userID, retweeterID, tweet.text, tweet.quotedID, tweet.inReplyToID, tweet.displayStart,
            ])
        guard db.changesCount > 0 else { return .duplicate }
        try insertMentions(tweet.mentions, of: id)
        try insertMedia(tweet.media, of: id)
        try index(IndexEntry(tweet), of: id)
        return .inserted
    }

    private func insertMentions(_ mentions: [Mention], of id: Int64) throws {
        let insert = try statement("INSERT INTO mention(tweetID, position, kind, start, end, expandedURL, display) VALUES (?, ?, ?, ?, ?, ?, ?)")
        for (position, mention) in mentions.enumerated() {
            try insert.execute(arguments: [
                id, position, mention.kind.code, mention.range.lowerBound, mention.range.upperBound, mention.expandedURL, mention.display,
            ])
        }
    }

    private func insertMedia(_ media: [MediaItem], of id: Int64) throws {
        let insert = try statement("INSERT INTO media(tweetID, position, url, aspectRatio, kind) VALUES (?, ?, ?, ?, ?)")
        for (position, item) in media.enumerated() {
            try insert.execute(arguments: [id, position, item.url, item.aspectRatio, item.kind.rawValue])
        }
    }

    private mutating func index(_ entry: IndexEntry, of id: Int64) throws {
        let post = try statement("INSERT OR IGNORE INTO posting(termID, tweetID) VALUES (?, ?)")
        for term in entry.terms { try post.execute(arguments: [try termID(term), id]) }
        try statement("INSERT INTO word(rowid, words) VALUES (?, ?)").execute(arguments: [id, entry.words])
    }

    /// The newest name and picture win: a user's profile changes over time.
    private mutating func userID(_ user: Author) throws -> Int64 {
        let key = user.screenName.lowercased()
        if let id = userIDs[key] { return id }
        let id = try Int64.fetchOne(statement("""
            INSERT INTO user(screenName, name, profileImageURL) VALUES (?, ?, ?)
            ON CONFLICT(screenName) DO UPDATE SET name = excluded.name,
                profileImageURL = coalesce(excluded.profileImageURL, profileImageURL)
            RETURNING id
            """), arguments: [user.screenName, user.name, user.profileImageURL])
        guard let id else { throw DatabaseError(message: "no id for user \(user.screenName)") }
        userIDs[key] = id
        return id
    }

    private mutating func termID(_ key: String) throws -> Int64 {
        if let id = termIDs[key] { return id }
        if let id = try Int64.fetchOne(statement("SELECT id FROM term WHERE key = ?"), arguments: [key]) {
            termIDs[key] = id
            return id
        }
        try statement("INSERT INTO term(key) VALUES (?)").execute(arguments: [key])
        termIDs[key] = db.lastInsertedRowID
        return db.lastInsertedRowID
    }

    private func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }
}

extension Mention.Kind {
    /// How the kind is stored: a small number, since there is one per mention.
    var code: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    init?(code: Int) {
        guard Self.allCases.indices.contains(code) else { return nil }
        self = Self.allCases[code]
    }
}
