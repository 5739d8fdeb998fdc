import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Inserts posts inside one write transaction, with the import's statements bound through SQLite's C interface
/// (`RawStatement`) and the ids of authors known before the transaction (`KnownRows`) or learnt in it.
struct PostWriter {
    enum Outcome { case inserted, duplicate, badID }

    let db: Database
    /// Authors known so far: what the corpus remembered when the transaction began, and what it added.
    private(set) var known: KnownRows
    private var inserts: Inserts?

    init(db: Database, known: KnownRows = KnownRows()) {
        self.db = db
        self.known = known
    }

    /// What happened to each record, in order. A batch is written table by table — the posts, then their mentions,
    /// media and search index rows — so each B-tree's pages are visited together: the order the floor benchmark
    /// inserts in.
    mutating func insert(_ records: [PostRecord]) throws -> [Outcome] {
        guard !records.isEmpty else { return [] }
        let rows = try preparedInserts()
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(records.count)
        var stored: [(record: PostRecord, key: Int64, alsoFrom: String?)] = []
        for record in records {
            let post = record.post
            guard let key = try orderKey(of: record) else {
                outcomes.append(post.network == .twitter ? .badID : .duplicate)
                continue
            }
            let author = try user(post.author)
            if post.signedInOnly { try asksForSignIn(author.id) }
            let reposter = try post.repostedBy.map { try user($0) }
            let isNew = try rows.post.run(record.postRow(key: key, author: author.id, reposter: reposter?.id)) > 0
            outcomes.append(isNew ? .inserted : .duplicate)
            if isNew { stored.append((record, key, (reposter ?? author).resolvedHandle)) }
        }
        for (record, key, _) in stored {
            for mention in record.mentionRows(key: key) { try rows.mention.run(mention) }
        }
        for (record, key, _) in stored {
            for item in record.mediaRows(key: key) { try rows.media.run(item) }
        }
        for (record, key, name) in SearchIndex.inRowOrder(stored, key: \.key) {
            try rows.search.run(.integer(key), .text(record.searchText(alsoFrom: name)))
        }
        return outcomes
    }

    /// The statements of an insert, prepared once a transaction.
    private struct Inserts {
        let post: RawStatement
        let mention: RawStatement
        let media: RawStatement
        let search: RawStatement

        init(_ db: Database) throws {
            post = try RawStatement(db, CorpusInserts.post)
            mention = try RawStatement(db, CorpusInserts.mention)
            media = try RawStatement(db, CorpusInserts.media)
            search = try RawStatement(db, CorpusInserts.searchIndex)
        }
    }

    private mutating func preparedInserts() throws -> Inserts {
        if let inserts { return inserts }
        let made = try Inserts(db)
        inserts = made
        return made
    }

    /// An X post's own id; for another network's, a free key made from its time (`OrderKey`), or nil when the
    /// corpus holds the post already.
    private func orderKey(of record: PostRecord) throws -> Int64? {
        let post = record.post
        guard post.network != .twitter else { return record.ownKey }
        let known = try Int64.fetchOne(
            statement("SELECT id FROM post WHERE network = ? AND postID = ?"), arguments: [post.network.code, post.id])
        guard known == nil else { return nil }
        var key = OrderKey.of(post)
        while try Int64.fetchOne(statement("SELECT 1 FROM post WHERE id = ?"), arguments: [key]) != nil { key += 1 }
        return key
    }

    /// Removes a stored post and its row of the search index, made again from it (the index keeps no copy of its
    /// text, so a row is removed by giving its tokens back); its mentions and media go with it (`ON DELETE
    /// CASCADE`).
    /// False when the corpus does not hold the post.
    mutating func remove(id: String) throws -> Bool {
        guard let key = try OrderKeys.key(of: id, db) else { return false }
        return try remove(keys: [key]) == 1
    }

    /// The same, by order key, the posts loaded together; how many the corpus held.
    mutating func remove(keys: [Int64]) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        let entries = try SearchIndex.entries(keys, db)
        for key in SearchIndex.inRowOrder(entries.keys) {
            guard let entry = entries[key] else { continue }
            try statement(SearchIndex.delete).execute(arguments: [key, SearchIndex.text(of: entry)])
            try statement("DELETE FROM post WHERE id = ?").execute(arguments: [key])
        }
        return entries.count
    }

    /// The newest name and picture win: a user's profile changes over time. An author known only by DID is added
    /// to be resolved, and never overwrites what resolving found. Written only when new or changed.
    private mutating func user(_ user: Author) throws -> KnownRows.Author {
        let key = user.handle.lowercased()
        if let known = known.authors[key], user.isUnresolved || known.isShown(as: user) { return known }
        let row = try Row.fetchOne(
            statement(
                user.isUnresolved
                    ? """
                    INSERT INTO author(handle, name, profileImageURL, pending) VALUES (?, ?, ?, 1)
                    ON CONFLICT(handle) DO UPDATE SET pending = pending
                    RETURNING id, resolvedHandle, name, profileImageURL
                    """
                    : """
                    INSERT INTO author(handle, name, profileImageURL) VALUES (?, ?, ?)
                    ON CONFLICT(handle) DO UPDATE SET name = excluded.name,
                        profileImageURL = coalesce(excluded.profileImageURL, profileImageURL)
                    RETURNING id, resolvedHandle, name, profileImageURL
                    """), arguments: [user.handle, user.name, user.profileImageURL])
        guard let row else { throw DatabaseError(message: "no id for user \(user.handle)") }
        let stored = KnownRows.Author(
            id: row["id"], resolvedHandle: row["resolvedHandle"], name: row["name"], picture: row["profileImageURL"])
        known.remember(stored, as: key)
        return stored
    }

    /// A post says its author shows their posts only to people signed in: so does every post of theirs the corpus
    /// holds. Only a resolved profile takes it back (`store(_:)`): a post without labels (the live index's) says
    /// nothing either way.
    private func asksForSignIn(_ author: Int64) throws {
        try statement("UPDATE author SET signedInOnly = 1 WHERE id = ? AND signedInOnly = 0").execute(arguments: [
            author
        ])
    }

    /// An author's row changed (a profile resolved): what was known of it is forgotten.
    mutating func forget(author handle: String) {
        known.forget(author: handle.lowercased())
    }

    func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }
}
