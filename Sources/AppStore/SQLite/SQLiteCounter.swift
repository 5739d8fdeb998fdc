import GRDB
import Posts
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Counts a fetched page under a term inside the caller's SQLite transaction, in a fixed number of statements whatever
/// the page's size: the keys go to SQLite as rows of a `VALUES` list, and SQLite tells which posts it holds and which
/// of them are new for the term. The new posts' mentions wait to be added to the term's counts until they are read
/// (`PendingTallies`), which adds them here (`add`).
struct SQLiteCounter {
    let db: Database
    let termID: Int64
    /// The page's posts counted under the term already, as read in this transaction (`SQLiteStore.countedKeys`).
    let counted: Set<PostKey>
    let known: KnownMentions

    /// Marks the posts new for the term counted under it (storing those the store does not hold yet: no term has
    /// counted them), and leaves their mentions waiting for the term's counts (`PendingTallies`). Returns the mention
    /// ids it had to look up, for `known` once the transaction has committed.
    func count(_ page: PreparedPage) throws -> [String: Int64] {
        try recordServers(page)
        let new = page.storable.filter { !counted.contains($0.post.key) }
        guard !new.isEmpty else { return [:] }
        var references = try storedReferences(new)
        let unheld = new.filter { references[$0.post.key] == nil }
        try store(unheld, into: &references)
        let newlyCounted = new.compactMap { references[$0.post.key] }
        try markCounted(newlyCounted)
        // The mentions are numbered now, as the posts are counted, though their counts wait: ties between partners go
        // to the mention met first, and met means counted, as on PostgreSQL. Only those of the posts stored now: the
        // counts are made from the stored form, whose mentions were numbered when it was stored (its first count).
        let (_, learned) = try ids(of: MentionTally(mentionsOf: unheld.map(\.kept)))
        let added = try PendingTallies.wait(newlyCounted, under: termID, known: known, db)
        return learned.merging(added) { learned, _ in learned }
    }

    /// Adds a tally's hashtags and users to the term's counts (with their hours, pairs and interactions), looking up
    /// the mentions `known` does not hold. Returns the ids it looked up.
    func add(_ tally: MentionTally) throws -> [String: Int64] {
        let (ids, learned) = try ids(of: tally)
        try add(tally, ids: ids)
        return learned
    }

    /// The ids of the tally's mentions, and those of them `known` did not hold, created if new.
    private func ids(of tally: MentionTally) throws -> (all: [String: Int64], learned: [String: Int64]) {
        let met = known.ids(of: tally.mentions.map(\.key))
        // In key order, as PostgreSQL numbers them: both stores then break partners' ties (the mention met first)
        // alike.
        let learned = try mentionIDs(tally.mentions.filter { met[$0.key] == nil }.sorted { $0.key < $1.key })
        return (met.merging(learned) { met, _ in met }, learned)
    }

    /// The servers that gave the page's posts (`PostServers`), each pair once.
    private func recordServers(_ page: PreparedPage) throws {
        let rows = PostServers.rows(page).map {
            [$0.network.databaseValue, $0.id.databaseValue, $0.server.databaseValue]
        }
        try ValuesList(rows).eachStatement { list, values in
            try values.statement("INSERT OR IGNORE INTO postServer(network, postID, server) VALUES \(list)", in: db)
                .execute()
        }
    }

    /// The store's reference of each post it holds already (the page's keys the outer loop, as in
    /// `SQLiteStore.countedKeys`).
    private func storedReferences(_ posts: [StorablePost]) throws -> [PostKey: Int64] {
        var references: [PostKey: Int64] = [:]
        try ValuesList(PostKeys.rows(posts.map(\.post.key))).eachStatement { list, values in
            let rows = try Row.fetchCursor(
                values.statement(
                    """
                    WITH k(network, postID) AS (VALUES \(list))
                    SELECT p.id, p.network, p.postID FROM k CROSS JOIN post p ON p.network = k.network AND p.postID = \
                    k.postID
                    """, in: db))
            while let row = try rows.next() {
                if let key = PostKeys.key(network: row["network"], id: row["postID"]) { references[key] = row["id"] }
            }
        }
        return references
    }

    /// The new posts are numbered here, after the highest reference (the writer is alone): with `RETURNING` the
    /// numbers SQLite chose, an insert of twelve posts took 49 µs instead of 28.
    private func store(_ posts: [StorablePost], into references: inout [PostKey: Int64]) throws {
        guard !posts.isEmpty else { return }
        let highest = try Int64.fetchOne(statement("SELECT coalesce(max(id), 0) FROM post")) ?? 0
        guard highest < Int64.max - Int64(posts.count) else {
            throw DatabaseError(message: "post references are exhausted")
        }
        let numbered = posts.enumerated().map { offset, post in (reference: highest + 1 + Int64(offset), post: post) }
        let rows = numbered.map { reference, post in
            [
                reference.databaseValue, post.post.network.code.databaseValue, post.post.id.databaseValue,
                post.created.databaseValue, post.json.databaseValue,
            ]
        }
        try ValuesList(rows).eachStatement { list, values in
            try values.statement("INSERT INTO post(id, network, postID, created, json) VALUES \(list)", in: db)
                .execute()
        }
        for (reference, post) in numbered { references[post.post.key] = reference }
    }

    /// No `ON CONFLICT`: the posts are new for the term by `counted`, read in this transaction, and a post counted
    /// twice would be an error, not a row to skip.
    private func markCounted(_ references: [Int64]) throws {
        let now = Date().millisecondsSince1970.databaseValue
        try ValuesList(references.map { [$0.databaseValue, now] }, term: termID).eachStatement { list, values in
            try values.statement("INSERT INTO countedPost(termID, postRef, counted) VALUES \(list)", in: db)
                .execute()
        }
    }

    /// Each mention's id, created if new. Looked up after inserting the new ones, rather than returned by an upsert,
    /// which would write every existing mention's row again.
    private func mentionIDs(_ mentions: [MentionTally.Entry]) throws -> [String: Int64] {
        let rows = mentions.map { [$0.kind.code.databaseValue, $0.key.databaseValue, $0.shown.databaseValue] }
        var ids: [String: Int64] = [:]
        try ValuesList(rows).eachStatement { list, values in
            try values.statement("INSERT OR IGNORE INTO mention(kind, key, shown) VALUES \(list)", in: db).execute()
            let cursor = try Row.fetchCursor(
                values.statement(
                    """
                    WITH m(kind, key, shown) AS (VALUES \(list)) SELECT key, id FROM mention WHERE key IN (SELECT key \
                    FROM m)
                    """, in: db))
            while let row = try cursor.next() { ids[row["key"]] = row["id"] }
        }
        return ids
    }

    /// The counts, and the same counts by hour for the trends.
    private func add(_ tally: MentionTally, ids: [String: Int64]) throws {
        // A user only acted on (an interaction's end) has no count.
        let counts = tally.mentions.filter { $0.count > 0 }.compactMap { mention in
            ids[mention.key].map { [$0.databaseValue, mention.count.databaseValue] }
        }
        try upsert(counts) { values in
            """
            INSERT INTO mentionCount(termID, mentionID, count) VALUES \(values)
            ON CONFLICT(termID, mentionID) DO UPDATE SET count = count + excluded.count
            """
        }
        let hours = tally.hours.compactMap { entry in
            ids[tally.mentions[entry.mention].key].map {
                [$0.databaseValue, entry.hour.databaseValue, entry.count.databaseValue]
            }
        }
        try upsert(hours) { values in
            """
            INSERT INTO mentionTrend(termID, mentionID, hour, count) VALUES \(values)
            ON CONFLICT(termID, mentionID, hour) DO UPDATE SET count = count + excluded.count
            """
        }
        try widenSpan(to: tally.hours.map(\.hour))
        try addPairs(tally, ids: ids)
        for table in SQLiteInteractions(tally, ids: ids).tables { try upsert(table.rows, table.upsert) }
    }

    /// The co-mention weights: each pair both ways in the totals (a mention's partners are one range of the key),
    /// once by the hour, the lower id first.
    private func addPairs(_ tally: MentionTally, ids: [String: Int64]) throws {
        let pairs = tally.pairs.compactMap { pair in
            MentionPair(tally, pair, ids: ids).map { [pair.hour.databaseValue] + $0.row(weight: pair.weight) }
        }
        guard !pairs.isEmpty else { return }
        try upsert(pairs) { values in
            """
            INSERT INTO mentionPairHour(termID, hour, mentionID, partnerID, weight) VALUES \(values)
            ON CONFLICT(termID, hour, mentionID, partnerID) DO UPDATE SET weight = weight + excluded.weight
            """
        }
        let totals = tally.pairTotals.flatMap { pair in
            MentionPair(tally, pair, ids: ids).map {
                [$0.row(weight: pair.weight), $0.reversed.row(weight: pair.weight)]
            }
                ?? []
        }
        try upsert(totals) { values in
            """
            INSERT INTO mentionPair(termID, mentionID, partnerID, weight) VALUES \(values)
            ON CONFLICT(termID, mentionID, partnerID) DO UPDATE SET weight = weight + excluded.weight
            """
        }
    }

    /// Runs `sql` for the term (`?1`) with rows of values after it.
    private func upsert(_ rows: [[DatabaseValue]], _ sql: (String) -> String) throws {
        try ValuesList(rows, term: termID).eachStatement { list, values in
            try values.statement(sql(list), in: db).execute()
        }
    }

    /// The term's span takes in the hours counted (its time span on `recent`, for the trends' bucket and window).
    private func widenSpan(to hours: [Int]) throws {
        guard let earliest = hours.min(), let latest = hours.max() else { return }
        try statement(
            """
            UPDATE recent SET earliestHour = min(coalesce(earliestHour, ?2), ?2), latestHour = \
            max(coalesce(latestHour, ?3), ?3)
            WHERE id = ?1
            """
        ).execute(arguments: [termID, earliest, latest])
    }

    /// Compiled once per connection, as every page runs the same few statements.
    private func statement(_ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }
}

extension MentionPair {
    func row(weight: Int) -> [DatabaseValue] {
        [mention.databaseValue, partner.databaseValue, weight.databaseValue]
    }
}

/// Rows of values bound as the parameters of a `VALUES` list, at most `chunk` rows a statement, so that a statement
/// is compiled once per size; with a term, each row starts with it (`?1`, bound once). Not one JSON array through
/// `json_each`, as counting first did: SQLite 3.40 parses a row's JSON again for every `->>`, which made an upsert of a
/// new term's 56 trend rows take 87 µs against 34 µs this way (and a post's JSON would be parsed and printed again).
struct ValuesList {
    static let chunk = 64
    private let rows: [[DatabaseValue]]
    private let term: Int64?

    init(_ rows: [[DatabaseValue]], term: Int64? = nil) {
        (self.rows, self.term) = (rows, term)
    }

    /// Each chunk's `VALUES` list, and its values to bind to the statement made from it.
    func eachStatement(_ body: (String, Values) throws -> Void) throws {
        for start in stride(from: 0, to: rows.count, by: Self.chunk) {
            let chunk = rows[start..<min(start + Self.chunk, rows.count)]
            try body(
                Self.list(Shape(width: chunk[start].count, rows: chunk.count, hasTerm: term != nil)),
                Values(term: term, rows: chunk))
        }
    }

    /// A chunk's values, bound in place: `StatementArguments` copies every value into arrays of its own and checks
    /// them against the statement (4% of a server's samples under new terms, in the writer every search waits on).
    struct Values {
        let term: Int64?
        let rows: ArraySlice<[DatabaseValue]>

        /// `sql` compiled once per connection (every page runs the same few statements), with the term, the rows and
        /// then `trailing` bound to its parameters in that order.
        func statement(_ sql: String, in db: Database, trailing: [DatabaseValue] = []) throws -> Statement {
            let statement = try db.cachedStatement(sql: sql)
            try bind(to: statement, trailing: trailing)
            return statement
        }

        private func bind(to statement: Statement, trailing: [DatabaseValue]) throws {
            // Unchecked, then bound by SQLite's C API: GRDB keeps these bindings through the reset that starts each
            // execution. A cached statement never failed: GRDB drops one that does from its cache.
            statement.setUncheckedArguments(StatementArguments())
            var index: CInt = 1
            func bind(_ value: DatabaseValue) throws {
                let code = value.bind(to: statement.sqliteStatement, at: index)
                guard code == 0 else {
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code), message: "binding parameter \(index)",
                        sql: statement.sql)
                }
                index += 1
            }
            if let term { try bind(term.databaseValue) }
            for row in rows { for value in row { try bind(value) } }
            for value in trailing { try bind(value) }
        }
    }

    private struct Shape: Hashable {
        let width: Int
        let rows: Int
        let hasTerm: Bool
    }

    /// Made once per shape: the statements are the same few, page after page.
    private static let lists = Mutex<[Shape: String]>([:])

    private static func list(_ shape: Shape) -> String {
        lists.withLock { lists in
            if let list = lists[shape] { return list }
            let row =
                "("
                + ((shape.hasTerm ? ["?1"] : []) + Array(repeating: "?", count: shape.width)).joined(separator: ", ")
                + ")"
            let list = Array(repeating: row, count: shape.rows).joined(separator: ", ")
            lists[shape] = list
            return list
        }
    }
}

/// Post keys as SQL sees them: rows of (network code, id) for a `VALUES` list, and back.
enum PostKeys {
    static func rows(_ keys: some Sequence<PostKey>) -> [[DatabaseValue]] {
        keys.map { [$0.network.code.databaseValue, $0.id.databaseValue] }
    }

    static func key(network code: Int, id: String) -> PostKey? {
        Network(code: code).map { PostKey(network: $0, id: id) }
    }
}
