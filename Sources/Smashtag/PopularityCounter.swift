import GRDB
import Posts
import Twitter

/// Counts a fetched page under a term inside the caller's transaction, in a fixed number of statements whatever the
/// page's size: the ids go to SQLite as one JSON array, and SQLite tells which of them are new for the term.
struct PopularityCounter {
    let db: Database
    let termID: Int64

    /// Marks the tweets counted under the term, then stores only the ones that were new for it (the others were
    /// stored when first counted) and adds their distinct hashtags and users to the term's counts.
    func count(_ tweets: [StorableTweet]) throws {
        guard !tweets.isEmpty else { return }
        let newIDs = Set(try newlyCounted(tweets.map(\.id)))
        let new = tweets.filter { newIDs.contains($0.id) }
        guard !new.isEmpty else { return }
        try store(new)
        let increments = MentionTally(new.map(\.tweet))
        guard !increments.isEmpty else { return }
        let ids = try mentionIDs(increments)
        try add(increments, ids: ids)
    }

    /// Ignored when another term stored the tweet first. One statement with a row of parameters per tweet (compiled
    /// once per page size): as one JSON array, SQLite would parse and print again every tweet's JSON.
    private func store(_ tweets: [StorableTweet]) throws {
        let rows = Array(repeating: "(?, ?)", count: tweets.count).joined(separator: ", ")
        var arguments = StatementArguments()
        for tweet in tweets { arguments += [tweet.id, tweet.json] }
        try statement("INSERT OR IGNORE INTO storedTweet(id, tweet) VALUES \(rows)").execute(arguments: arguments)
    }

    /// The ids not yet counted under the term, now marked counted.
    private func newlyCounted(_ ids: [Int64]) throws -> [Int64] {
        try Int64.fetchAll(statement("""
            INSERT INTO countedTweet(termID, tweetID) SELECT ?, value FROM json_each(?) WHERE true
            ON CONFLICT DO NOTHING RETURNING tweetID
            """), arguments: [termID, "[" + ids.map(String.init).joined(separator: ",") + "]"])
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

    private func add(_ tally: MentionTally, ids: [String: Int64]) throws {
        let rows = tally.mentions.compactMap { mention in ids[mention.key].map { [JSONCell.int(Int($0)), .int(mention.count)] } }
        try statement("""
            INSERT INTO mentionCount(termID, mentionID, count) SELECT ?, value ->> 0, value ->> 1 FROM json_each(?) WHERE true
            ON CONFLICT(termID, mentionID) DO UPDATE SET count = count + excluded.count
            """).execute(arguments: [termID, JSONArray(rows)])
    }

    /// Compiled once per connection, as every page runs the same few statements.
    private func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }
}

/// A tweet with its id as stored and its JSON (made before the write: see `PreparedPage`).
struct StorableTweet: Sendable {
    let id: Int64
    let tweet: Post
    let json: String

    /// Nil for an id the store cannot hold (it is not counted).
    init?(_ tweet: Post) {
        guard let id = Int64(tweet.id) else { return nil }
        (self.id, self.tweet, json) = (id, tweet, tweet.codableJSON)
    }
}

/// How many of some tweets name each hashtag and user: a tweet naming one twice counts once.
struct MentionTally {
    struct Entry {
        /// 0 hashtag, 1 user (as stored).
        let kind: Int
        /// Lower-cased with its `#` or `@`: mentions are the same case-insensitively.
        let key: String
        let shown: String
        var count: Int
    }

    private(set) var mentions: [Entry] = []

    var isEmpty: Bool { mentions.isEmpty }

    init(_ tweets: [Post]) {
        var index: [String: Int] = [:]
        for tweet in tweets {
            var seen = Set<String>()
            for mention in tweet.mentions where mention.kind != .url {
                let key = mention.keyword.lowercased()
                guard seen.insert(key).inserted else { continue }
                if let at = index[key] {
                    mentions[at].count += 1
                } else {
                    index[key] = mentions.count
                    mentions.append(Entry(kind: mention.kind == .hashtag ? 0 : 1, key: key, shown: mention.keyword, count: 1))
                }
            }
        }
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
