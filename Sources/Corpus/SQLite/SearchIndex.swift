import GRDB
import Posts
import Synchronization

/// The corpus's one search index, the FTS5 table `searchIndex`: a row per post, holding the tokens it is found by
/// (`SearchTokens`). The table keeps no copy of its text (`content=''`), so a row is removed or changed by giving its
/// old tokens back: they are made again from the stored post, as it was indexed.
///
/// A post's row is its order key negated (since `v14`; `insert` and `delete` take the key): pages are read newest
/// first, and FTS5 walks its lists backwards at half the speed it walks them forwards — a reversed walk decodes each
/// page of a list whole before it can step back through it. Negated, the newest-first walk is the forward one.
enum SearchIndex {
    static let create = """
        CREATE VIRTUAL TABLE searchIndex USING fts5(tokens, content='', columnsize=0, tokenize='ascii')
        """
    static let insert = "INSERT INTO searchIndex(rowid, tokens) VALUES (-?1, ?2)"
    /// What `SegmentMerges` merges: any two segments of a level (FTS5's own merging waits for four).
    static let mergeTwoAtATime = "INSERT INTO searchIndex(searchIndex, rank) VALUES ('usermerge', 2)"
    static let delete = "INSERT INTO searchIndex(searchIndex, rowid, tokens) VALUES ('delete', -?1, ?2)"

    /// `keys` in the order their rows are written: FTS5 keeps a transaction's rows in memory only while each comes
    /// after the one before, and writes them out as a segment of its own whenever one does not, so rows written
    /// against that order made a segment each (an import of oldest-first pages ran at a third of its pace). Rows are
    /// negated keys: the newest post first.
    static func inRowOrder(_ keys: some Sequence<Int64>) -> [Int64] {
        inRowOrder(keys) { $0 }
    }

    /// `items` in the order of their rows, each keyed by `key`.
    static func inRowOrder<Item>(_ items: some Sequence<Item>, key: (Item) -> Int64) -> [Item] {
        items.sorted { key($0) > key($1) }
    }

    /// A post's row: its words and terms, and `from:` the handle its author's DID resolved to, when it did.
    static func text(of entry: IndexEntry) -> String {
        SearchTokens.text(words: entry.words, terms: entry.terms)
    }

    /// The stored posts of `keys` as they were indexed: loaded, a resolved Bluesky author is named by handle, and
    /// the post is also found by the DID it came with (the handle stored). `replies`: false for the terms a corpus
    /// written before v12 holds.
    static func entries(_ keys: [Int64], _ db: Database, replies: Bool = true) throws -> [Int64: IndexEntry] {
        let posts = try PostLoader(db: db).posts(keys)
        let list = "[" + keys.map(String.init).joined(separator: ",") + "]"
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT p.id, a.handle FROM post p JOIN author a ON a.id = coalesce(p.reposterID, p.authorID)
                    WHERE p.id IN (SELECT value FROM json_each(?))
                    """), arguments: [list])
        var entries: [Int64: IndexEntry] = [:]
        for row in rows {
            let key: Int64 = row["id"]
            if let post = posts[key] { entries[key] = IndexEntry(post, alsoFrom: row["handle"], replies: replies) }
        }
        return entries
    }

    /// Every stored post indexed again, in batches of key order: what a corpus written before this index needs.
    /// `replies`: false as v9 indexed them (v12 added the replies' terms).
    static func fill(_ db: Database, replies: Bool = true) throws {
        let insert = try db.makeStatement(sql: Self.insert)
        var last = Int64.max
        while true {
            // Newest first: the rows' order (`inRowOrder`).
            let keys = try Int64.fetchAll(
                db, sql: "SELECT id FROM post WHERE id < ? ORDER BY id DESC LIMIT 1000", arguments: [last])
            guard let end = keys.last else { return }
            let entries = try Self.entries(keys, db, replies: replies)
            for key in keys {
                if let entry = entries[key] { try insert.execute(arguments: [key, text(of: entry)]) }
            }
            last = end
        }
    }

    /// Every stored reply indexed again with the terms that find it (`filter:replies`, `reply:network:id`): its row
    /// taken out with the tokens v9 gave it and put back whole.
    static func indexReplies(_ db: Database) throws {
        let (delete, insert) = (try db.makeStatement(sql: Self.delete), try db.makeStatement(sql: Self.insert))
        var last = Int64.max
        while true {
            let keys = try Int64.fetchAll(
                db, sql: "SELECT id FROM post WHERE id < ? AND inReplyToID IS NOT NULL ORDER BY id DESC LIMIT 1000",
                arguments: [last])
            guard let end = keys.last else { return }
            let (before, after) = (try Self.entries(keys, db, replies: false), try Self.entries(keys, db))
            for key in keys {
                guard let old = before[key], let new = after[key] else { continue }
                try delete.execute(arguments: [key, text(of: old)])
                try insert.execute(arguments: [key, text(of: new)])
            }
            last = end
        }
    }

    /// The index made again with each post's row its negated order key, and merged into one segment.
    static func negateRows(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE searchIndex")
        try db.execute(sql: create)
        try fill(db)
        try db.execute(sql: "INSERT INTO searchIndex(searchIndex) VALUES ('optimize')")
    }
}

/// Keeps the search index in few segments while posts arrive a few at a time (the living demo's one every five
/// seconds, the live index's batches): each write transaction leaves a segment of its own, and FTS5 merges a level
/// only once it has four, so a corpus kept running held eleven to fourteen of them, each looked up for every token a
/// search names — an `#a OR #b` took 43 µs where one segment took 25. Every hundredth write also merges at most 500
/// pages of segments two at a time (`SearchIndex.mergeTwoAtATime`): 20,000 one-post writes at 200,000 posts then left
/// four segments and searches of 23 µs, for 52 µs of merging a write (the longest merge 44 ms).
final class SegmentMerges: Sendable {
    static let every = 100
    static let pages = 500
    private let writes = Mutex(0)

    /// A write to the index is about to commit in `db`'s transaction: every `every`th merges, in it.
    func wrote(_ db: Database) throws {
        let isDue = writes.withLock { writes in
            writes += 1
            guard writes >= Self.every else { return false }
            writes = 0
            return true
        }
        guard isDue else { return }
        try db.execute(sql: "INSERT INTO searchIndex(searchIndex, rank) VALUES ('merge', \(Self.pages))")
    }
}
