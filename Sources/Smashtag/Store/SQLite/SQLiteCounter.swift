#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import Posts
import Twitter

/// Counts a fetched page under a term inside the caller's SQLite transaction, in a fixed number of statements whatever the
/// page's size: the keys go to SQLite as one JSON array, and SQLite tells which posts it holds and which of them
/// are new for the term.
struct SQLiteCounter {
    let db: Database
    let termID: Int64
    let known: KnownMentions

    /// Stores the posts the store does not hold yet (no term has counted them), marks them all counted under the
    /// term, and adds the distinct hashtags and users of those that were new for it to the term's counts. Returns
    /// the mention ids it had to look up, for `known` once the transaction has committed.
    func count(_ page: PreparedPage) throws -> [String: Int64] {
        let posts = page.storable
        guard !posts.isEmpty else { return [:] }
        var references = try storedReferences(posts)
        try store(posts.filter { references[$0.post.key] == nil }, into: &references)
        let newReferences = Set(try newlyCounted(Array(references.values)))
        let new = posts.filter { references[$0.post.key].map(newReferences.contains) ?? false }
        guard !new.isEmpty else { return [:] }
        let increments = page.tally(of: new)
        guard !increments.isEmpty else { return [:] }
        let met = known.ids(of: increments.mentions.map(\.key))
        let learned = try mentionIDs(increments.mentions.filter { met[$0.key] == nil })
        try add(increments, ids: met.merging(learned) { met, _ in met })
        return learned
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
    /// which would write every existing mention's row again.
    private func mentionIDs(_ mentions: [MentionTally.Entry]) throws -> [String: Int64] {
        guard !mentions.isEmpty else { return [:] }
        let rows = mentions.map { [JSONCell.int($0.kind.code), .text($0.key), .text($0.shown)] }
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
        try widenSpan(to: tally.hours.map(\.hour))
    }

    /// The term's span takes in the hours counted (its time span on `recent`, for the trends' bucket and window).
    private func widenSpan(to hours: [Int]) throws {
        guard let earliest = hours.min(), let latest = hours.max() else { return }
        try statement("""
            UPDATE recent SET earliestHour = min(coalesce(earliestHour, ?2), ?2), latestHour = max(coalesce(latestHour, ?3), ?3)
            WHERE id = ?1
            """).execute(arguments: [termID, earliest, latest])
    }

    /// Compiled once per connection, as every page runs the same few statements.
    private func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
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
