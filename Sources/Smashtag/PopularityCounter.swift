#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import Posts
import Twitter

/// Counts a fetched page under a term inside the caller's transaction, in a fixed number of statements whatever the
/// page's size: the keys go to SQLite as one JSON array, and SQLite tells which posts it holds and which of them
/// are new for the term.
struct PopularityCounter {
    let db: Database
    let termID: Int64

    /// Stores the posts the store does not hold yet (no term has counted them), marks them all counted under the
    /// term, and adds the distinct hashtags and users of those that were new for it to the term's counts.
    func count(_ posts: [StorablePost]) throws {
        guard !posts.isEmpty else { return }
        var references = try storedReferences(posts)
        try store(posts.filter { references[$0.post.key] == nil }, into: &references)
        let newReferences = Set(try newlyCounted(Array(references.values)))
        let new = posts.filter { references[$0.post.key].map(newReferences.contains) ?? false }
        guard !new.isEmpty else { return }
        let increments = MentionTally(new.map(\.post))
        guard !increments.isEmpty else { return }
        let ids = try mentionIDs(increments)
        try add(increments, ids: ids)
    }

    /// The store's reference of each post it holds already (the page's keys the outer loop, as in `RecordedTerm`).
    private func storedReferences(_ posts: [StorablePost]) throws -> [PostKey: Int64] {
        let cursor = try Row.fetchCursor(statement("""
            SELECT p.id, p.network, p.postID FROM json_each(?) j
            CROSS JOIN post p ON p.network = j.value ->> 0 AND p.postID = j.value ->> 1
            """), arguments: [PostKeys.json(posts.map(\.post.key))])
        var references: [PostKey: Int64] = [:]
        try Self.read(cursor, into: &references)
        return references
    }

    /// Rows of (reference, network, id), by key.
    private static func read(_ cursor: RowCursor, into references: inout [PostKey: Int64]) throws {
        while let row = try cursor.next() {
            guard let key = PostKeys.key(network: row[1], id: row[2]) else { continue }
            references[key] = row[0]
        }
    }

    /// One statement with a row of parameters per post (compiled once per page size): as one JSON array, SQLite
    /// would parse and print again every post's JSON.
    private func store(_ posts: [StorablePost], into references: inout [PostKey: Int64]) throws {
        guard !posts.isEmpty else { return }
        let rows = Array(repeating: "(?, ?, ?, ?)", count: posts.count).joined(separator: ", ")
        var arguments = StatementArguments()
        for post in posts { arguments += [post.post.network.code, post.post.id, post.created, post.json] }
        let cursor = try Row.fetchCursor(statement("INSERT INTO post(network, postID, created, json) VALUES \(rows) RETURNING id, network, postID"), arguments: arguments)
        try Self.read(cursor, into: &references)
    }

    /// The references not yet counted under the term, now marked counted.
    private func newlyCounted(_ references: [Int64]) throws -> [Int64] {
        try Int64.fetchAll(statement("""
            INSERT INTO countedPost(termID, postRef) SELECT ?, value FROM json_each(?) WHERE true
            ON CONFLICT DO NOTHING RETURNING postRef
            """), arguments: [termID, "[" + references.map(String.init).joined(separator: ",") + "]"])
    }

    /// Each mention's id, created if new. Looked up after inserting the new ones, rather than returned by an upsert,
    /// which would write every known mention's row again.
    private func mentionIDs(_ tally: MentionTally) throws -> [String: Int64] {
        let rows = tally.mentions.map { [JSONCell.int($0.kind), .text($0.key), .text($0.shown)] }
        let list = JSONArray(rows)
        try statement("""
            INSERT OR IGNORE INTO mention(kind, key, shown) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)
            """).execute(arguments: [list])
        let cursor = try Row.fetchCursor(statement("""
            SELECT key, id FROM mention WHERE key IN (SELECT value ->> 1 FROM json_each(?))
            """), arguments: [list])
        var ids: [String: Int64] = [:]
        while let row = try cursor.next() { ids[row[0]] = row[1] }
        return ids
    }

    /// The counts, and the same counts by hour for the trends.
    private func add(_ tally: MentionTally, ids: [String: Int64]) throws {
        let rows = tally.mentions.compactMap { mention in ids[mention.key].map { [JSONCell.int(Int($0)), .int(mention.count)] } }
        try statement("""
            INSERT INTO mentionCount(termID, mentionID, count) SELECT ?, value ->> 0, value ->> 1 FROM json_each(?) WHERE true
            ON CONFLICT(termID, mentionID) DO UPDATE SET count = count + excluded.count
            """).execute(arguments: [termID, JSONArray(rows)])
        let hours = tally.hours.compactMap { entry in
            ids[tally.mentions[entry.mention].key].map { [JSONCell.int(Int($0)), .int(entry.hour), .int(entry.count)] }
        }
        try statement("""
            INSERT INTO mentionTrend(termID, mentionID, hour, count) SELECT ?, value ->> 0, value ->> 1, value ->> 2
            FROM json_each(?) WHERE true
            ON CONFLICT(termID, mentionID, hour) DO UPDATE SET count = count + excluded.count
            """).execute(arguments: [termID, JSONArray(hours)])
    }

    /// Compiled once per connection, as every page runs the same few statements.
    private func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }
}

/// A post with what the store writes of it, made before the write (see `PreparedPage`).
struct StorablePost: Sendable {
    let post: Post
    let created: Int64
    let json: String

    init(_ post: Post) {
        (self.post, created, json) = (post, post.created.millisecondsSince1970, post.codableJSON)
    }
}

/// Post keys as SQL sees them: a JSON array of `[network code, id]` pairs for `json_each`, and back.
enum PostKeys {
    static func json(_ keys: some Sequence<PostKey>) -> String {
        JSONArray(keys.map { [JSONCell.int($0.network.code), .text($0.id)] })
    }

    static func key(network code: Int, id: String) -> PostKey? {
        Network(code: code).map { PostKey(network: $0, id: id) }
    }
}

/// How many of some posts name each hashtag and user: a post naming one twice counts once. The same counts by the
/// hour of each post's own time, for the trends (SPEC §8): a mention's hours add up to its count.
struct MentionTally {
    struct Entry {
        /// 0 hashtag, 1 user (as stored).
        let kind: Int
        /// Lower-cased with its `#` or `@`: mentions are the same case-insensitively.
        let key: String
        let shown: String
        var count: Int
    }

    /// How many of the posts of one hour name `mentions[mention]`.
    struct HourEntry {
        let mention: Int
        let hour: Int
        var count: Int
    }

    private(set) var mentions: [Entry] = []
    private(set) var hours: [HourEntry] = []

    var isEmpty: Bool { mentions.isEmpty }

    init(_ posts: [Post]) {
        var index: [String: Int] = [:]
        var hourIndex: [TrendHour.Key: Int] = [:]
        for post in posts {
            let hour = TrendHour.of(post.created)
            for mention in Self.distinctMentions(of: post) {
                let at = index[mention.key] ?? {
                    index[mention.key] = mentions.count
                    mentions.append(Entry(kind: mention.kind, key: mention.key, shown: mention.shown, count: 0))
                    return mentions.count - 1
                }()
                mentions[at].count += 1
                let key = TrendHour.Key(mention: at, hour: hour)
                if let slot = hourIndex[key] { hours[slot].count += 1 } else {
                    hourIndex[key] = hours.count
                    hours.append(HourEntry(mention: at, hour: hour, count: 1))
                }
            }
        }
    }

    /// The hashtags and users a post names, each once (the first spelling), as (kind, key, shown).
    static func distinctMentions(of post: Post) -> [(kind: Int, key: String, shown: String)] {
        var seen = Set<String>()
        return post.mentions.compactMap { mention in
            guard mention.kind != .url else { return nil }
            let key = mention.keyword.lowercased()
            guard seen.insert(key).inserted else { return nil }
            return (mention.kind == .hashtag ? 0 : 1, key, mention.keyword)
        }
    }
}

/// Trends count by the hour (UTC) of the posts' own times: hours since 1970, so a day is 24 of them. A post dated
/// before 1970 (a broken date) counts in the first hour, so every hour is ≥ 0 and SQLite's integer division by 24 is
/// the floor that Swift's bucket arithmetic uses.
enum TrendHour {
    struct Key: Hashable {
        let mention: Int
        let hour: Int
    }

    static func of(_ date: Date) -> Int {
        max(0, Int((date.timeIntervalSince1970 / 3600).rounded(.down)))
    }
}

/// Rows of values as one JSON array argument, for `json_each`: one statement for a whole page.
private func JSONArray(_ rows: [[JSONCell]]) -> String {
    var json = JSONWriter()
    json.beginArray()
    for row in rows {
        json.beginArray()
        for cell in row {
            switch cell {
            case .int(let value): json.element(value)
            case .text(let value): json.element(value)
            }
        }
        json.endArray()
    }
    json.endArray()
    return json.output.string
}

private enum JSONCell {
    case int(Int)
    case text(String)
}
