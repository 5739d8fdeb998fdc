import GRDB
import Twitter

/// Counts a fetched page under a term inside the caller's transaction, in a fixed number of statements whatever the
/// page's size: the ids go to SQLite as one JSON array, and SQLite tells which of them are new for the term.
struct PopularityCounter {
    let db: Database
    let termID: Int64

    /// Marks the tweets counted under the term, then stores only the ones that were new for it (the others were
    /// stored when first counted) and adds their distinct hashtags and users to the term's counts.
    func count(_ tweets: [Tweet]) throws {
        let numbered = tweets.compactMap { tweet in Int64(tweet.id).map { ($0, tweet) } }
        guard !numbered.isEmpty else { return }
        let newIDs = Set(try newlyCounted(numbered.map(\.0)))
        let new = numbered.filter { newIDs.contains($0.0) }
        guard !new.isEmpty else { return }
        try store(new)
        let increments = MentionTally(new.map(\.1))
        guard !increments.isEmpty else { return }
        let ids = try mentionIDs(increments)
        try add(increments, ids: ids)
    }

    private func store(_ tweets: [(Int64, Tweet)]) throws {
        // Each tweet goes in as a JSON object, not a string holding JSON: nothing to escape twice. Ignored when
        // another term stored it first.
        let rows = tweets.map { [JSONCell.int(Int($0.0)), .json($0.1.codableJSON)] }
        try statement("""
            INSERT OR IGNORE INTO storedTweet(id, tweet)
            SELECT value ->> 0, value -> 1 FROM json_each(?)
            """).execute(arguments: [JSONArray(rows)])
    }

    /// The ids not yet counted under the term, now marked counted.
    private func newlyCounted(_ ids: [Int64]) throws -> [Int64] {
        try Int64.fetchAll(statement("""
            INSERT INTO countedTweet(termID, tweetID) SELECT ?, value FROM json_each(?) WHERE true
            ON CONFLICT DO NOTHING RETURNING tweetID
            """), arguments: [termID, "[" + ids.map(String.init).joined(separator: ",") + "]"])
    }

    /// Each mention's id, created if new.
    private func mentionIDs(_ tally: MentionTally) throws -> [String: Int64] {
        let rows = tally.mentions.map { [JSONCell.int($0.kind), .text($0.key), .text($0.shown)] }
        let cursor = try Row.fetchCursor(statement("""
            INSERT INTO mention(kind, key, shown) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
            ON CONFLICT(key) DO UPDATE SET key = excluded.key RETURNING key, id
            """), arguments: [JSONArray(rows)])
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

    init(_ tweets: [Tweet]) {
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
            case .json(let value): json.element(json: value)
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
    case json(String)
}
