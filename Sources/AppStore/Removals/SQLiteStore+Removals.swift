import GRDB
import Posts

/// Removals on SQLite: a write transaction per `batch` posts reads the posts' rows and the terms that counted them,
/// takes each term's tally of them back (`SQLiteCounter`'s statements in reverse: counts, hours, pairs both ways and
/// by the hour, rows at zero deleted), then deletes the posts. A process killed meanwhile leaves each batch counted,
/// or not at all. The terms' time spans are narrowed once, after the last batch: reading a span again reads every
/// mention of the term, and a batch of the oldest posts (retention's) would have read them all each time.
extension SQLiteStore: RemovalStore {
    func remove(_ keys: [PostKey], from term: String?, inTransactionsOf size: Int) async throws -> RemovedPosts {
        var removed = RemovedPosts()
        var hours: [Int64: ClosedRange<Int>] = [:]
        for batch in keys.chunks(of: size) {
            let (part, reached) = try await writer.write { db in
                guard let term else { return try Self.remove(batch, from: nil, db) }
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM recent WHERE key = ?", arguments: [term])
                else { return (RemovedPosts(), [:]) }
                return try Self.remove(batch, from: id, db)
            }
            removed.add(part)
            hours.merge(reached) { min($0.lowerBound, $1.lowerBound)...max($0.upperBound, $1.upperBound) }
        }
        if !hours.isEmpty {
            try await writer.write { [hours] db in
                for (term, reached) in hours { try Self.narrowSpan(of: term, after: reached, db) }
            }
        }
        return removed
    }

    /// One batch, from every term that counted its posts or from `term` only: what it removed, and the hours it
    /// reached under each term.
    private static func remove(
        _ keys: [PostKey], from term: Int64?, _ db: Database
    ) throws -> (RemovedPosts, [Int64: ClosedRange<Int>]) {
        var references = Set<Int64>()
        var uncounted = UncountedTally()
        // From one term, the posts it counted; from every term, every post, counted or not.
        let counted =
            term.map { "JOIN countedPost c ON c.postRef = p.id AND c.termID = \($0)" }
            ?? "LEFT JOIN countedPost c ON c.postRef = p.id"
        try ValuesList(PostKeys.rows(keys)).eachStatement { list, values in
            let rows = try Row.fetchCursor(
                values.statement(
                    """
                    WITH k(network, postID) AS (VALUES \(list))
                    SELECT p.id, p.json, c.termID, r.key FROM k JOIN post p ON p.network = k.network AND \
                    p.postID = k.postID
                    \(counted) LEFT JOIN recent r ON r.id = c.termID
                    """, in: db))
            while let row = try rows.next() {
                references.insert(row["id"])
                try uncounted.add(term: row["termID"], key: row["key"], json: row["json"])
            }
        }
        var removed = RemovedPosts()
        var hours: [Int64: ClosedRange<Int>] = [:]
        // The pages waiting under these terms go into their counts first: what is taken back was added.
        try PendingTallies.add(uncounted.tallies.map(\.term), known: KnownMentions(), db)
        for (term, key, tally) in uncounted.tallies {
            try subtract(tally, under: term, db)
            removed.terms.insert(key)
            if let first = tally.hours.map(\.hour).min(), let last = tally.hours.map(\.hour).max() {
                hours[term] = first...last
            }
        }
        let rows = references.sorted().map { [$0.databaseValue] }
        let scope = term.map { "termID = \($0) AND" } ?? ""
        let deletes: [(String) -> String] = [
            { "DELETE FROM countedPost WHERE \(scope) postRef IN (VALUES \($0))" },
            // A post another term still counts stays (a removal from one term only).
            { "DELETE FROM post WHERE id IN (VALUES \($0)) AND NOT EXISTS (\(Self.countedSomewhere))" },
        ]
        for delete in deletes {
            try ValuesList(rows).eachStatement { list, values in try values.statement(delete(list), in: db).execute() }
        }
        removed.posts = references.count
        return (removed, hours)
    }

    /// A post some term still counts (the deleting statement's `id`).
    private static let countedSomewhere = "SELECT 1 FROM countedPost WHERE postRef = id"

    /// The tally's counts taken from the term's: what `SQLiteCounter.add` added for the same posts.
    private static func subtract(_ tally: MentionTally, under term: Int64, _ db: Database) throws {
        let ids = try mentionIDs(tally.mentions.map(\.key), db)
        let counts = tally.mentions.filter { $0.count > 0 }.compactMap { mention in
            ids[mention.key].map { [$0.databaseValue, mention.count.databaseValue] }
        }
        try take(counts, term, db, table: "mentionCount", columns: ["mentionID"], measures: ["count"])
        let hours = tally.hours.compactMap { entry in
            ids[tally.mentions[entry.mention].key].map {
                [$0.databaseValue, entry.hour.databaseValue, entry.count.databaseValue]
            }
        }
        try take(hours, term, db, table: "mentionTrend", columns: ["mentionID", "hour"], measures: ["count"])
        let pairs = tally.pairs.compactMap { pair in
            MentionPair(tally, pair, ids: ids).map { [pair.hour.databaseValue] + $0.row(weight: pair.weight) }
        }
        try take(
            pairs, term, db, table: "mentionPairHour", columns: ["hour", "mentionID", "partnerID"], measures: ["weight"]
        )
        let totals = tally.pairTotals.flatMap { pair in
            MentionPair(tally, pair, ids: ids).map {
                [$0.row(weight: pair.weight), $0.reversed.row(weight: pair.weight)]
            }
                ?? []
        }
        try take(totals, term, db, table: "mentionPair", columns: ["mentionID", "partnerID"], measures: ["weight"])
        for table in SQLiteInteractions(tally, ids: ids).tables {
            try take(table.keyedMeasures, term, db, table: table.name, columns: table.keys, measures: table.measures)
        }
    }

    /// The term's span is what its hours still hold (PostgreSQL reads it from the hours' index): read again only when
    /// the removed posts reached its first or last hour.
    private static func narrowSpan(of term: Int64, after hours: ClosedRange<Int>, _ db: Database) throws {
        let (earliest, latest) = (hours.lowerBound, hours.upperBound)
        guard
            let span = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT earliestHour, latestHour FROM recent WHERE id = ?"), arguments: [term]),
            earliest <= (span["earliestHour"] as Int? ?? Int.min) || latest >= (span["latestHour"] as Int? ?? Int.max)
        else { return }
        // Each mention's first and last hour is one step into its range of the key: a seek per mention, where
        // min(hour) over the term read every hour of every mention (retention removes the oldest posts, batch after
        // batch, and read them all each time).
        try db.cachedStatement(
            sql: """
                UPDATE recent SET (earliestHour, latestHour) = (
                    SELECT min((SELECT hour FROM mentionTrend t WHERE t.termID = ?1 AND t.mentionID = c.mentionID \
                    ORDER BY hour LIMIT 1)), max((SELECT hour FROM mentionTrend t WHERE t.termID = ?1 \
                    AND t.mentionID = c.mentionID ORDER BY hour DESC LIMIT 1))
                    FROM mentionCount c WHERE c.termID = ?1)
                WHERE id = ?1
                """
        ).execute(arguments: [term])
    }

    /// Each row's `measures` down by the row's last values, matched on the term and `columns`; rows at zero go, each
    /// by its key (a delete of the term's rows at zero would read all of them, batch after batch).
    private static func take(
        _ rows: [[DatabaseValue]], _ term: Int64, _ db: Database, table: String, columns: [String], measures: [String]
    ) throws {
        guard !rows.isEmpty else { return }
        let matched = columns.map { "\(table).\($0) = d.\($0)" }.joined(separator: " AND ")
        let lowered = measures.map { "\($0) = \(table).\($0) - d.\($0)" }.joined(separator: ", ")
        var emptied: [[DatabaseValue]] = []
        try ValuesList(rows, term: term).eachStatement { list, values in
            let changed = try Row.fetchCursor(
                values.statement(
                    """
                    WITH d(termID, \((columns + measures).joined(separator: ", "))) AS (VALUES \(list))
                    UPDATE \(table) SET \(lowered) FROM d WHERE \(table).termID = d.termID AND \(matched)
                    RETURNING \((columns + measures).joined(separator: ", "))
                    """, in: db))
            while let row = try changed.next() {
                if measures.allSatisfy({ (row[$0] as Int) <= 0 }) { emptied.append(columns.map { row[$0] }) }
            }
        }
        let delete = try db.cachedStatement(
            sql: "DELETE FROM \(table) WHERE termID = ? AND " + columns.map { "\($0) = ?" }.joined(separator: " AND "))
        for key in emptied { try delete.execute(arguments: StatementArguments([term.databaseValue] + key)) }
    }

    private static func mentionIDs(_ keys: [String], _ db: Database) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        try ValuesList(keys.map { [$0.databaseValue] }).eachStatement { list, values in
            let rows = try Row.fetchCursor(
                values.statement("SELECT key, id FROM mention WHERE key IN (VALUES \(list))", in: db))
            while let row = try rows.next() { ids[row["key"]] = row["id"] }
        }
        return ids
    }

    func recheckCandidates(
        _ network: Network, after reference: Int64, checkedBefore: Int64, limit: Int
    ) async throws -> [KeptPost] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, postID FROM post WHERE id > ? AND network = ? AND coalesce(checked, 0) < ?
                    AND EXISTS (SELECT 1 FROM countedPost c WHERE c.postRef = post.id) ORDER BY id LIMIT ?
                    """, arguments: [reference, network.code, checkedBefore, limit]
            ).map { KeptPost(reference: $0["id"], key: PostKey(network: network, id: $0["postID"])) }
        }
    }

    func retentionCandidates(
        createdBefore: Int64, after reference: Int64, limit: Int, reducedToo: Bool
    ) async throws -> [KeptPost] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, network, postID FROM post WHERE id > ? AND created < ? AND (? OR expired IS NULL)
                    ORDER BY id LIMIT ?
                    """, arguments: [reference, createdBefore, reducedToo, limit]
            ).compactMap { row in
                PostKeys.key(network: row["network"], id: row["postID"]).map { KeptPost(reference: row["id"], key: $0) }
            }
        }
    }

    func termRetentionCandidates(
        _ key: String, createdBefore: Int64, now: Int64, after reference: Int64, limit: Int, forgetting: Bool
    ) async throws -> [KeptPost] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.network, p.postID FROM countedPost c JOIN post p ON p.id = c.postRef
                    WHERE c.termID = (SELECT id FROM recent WHERE key = ?1) AND c.postRef > ?2 AND p.created < ?3
                        AND (?5 OR (p.expired IS NULL AND NOT EXISTS (
                            SELECT 1 FROM countedPost o LEFT JOIN tracked t ON t.termID = o.termID
                            WHERE o.postRef = p.id AND o.termID <> c.termID
                                AND (t.keepDays IS NULL OR p.created >= ?4 - t.keepDays * 86400000))))
                    ORDER BY c.postRef LIMIT ?6
                    """, arguments: [key, reference, createdBefore, now, forgetting, limit]
            ).compactMap { row in
                PostKeys.key(network: row["network"], id: row["postID"]).map { KeptPost(reference: row["id"], key: $0) }
            }
        }
    }

    func reduce(_ keys: [PostKey], at time: Int64) async throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try await writer.write { db in
            var whole: [(id: Int64, json: String)] = []
            try ValuesList(PostKeys.rows(keys)).eachStatement { list, values in
                let rows = try Row.fetchCursor(
                    values.statement(
                        """
                        WITH k(network, postID) AS (VALUES \(list))
                        SELECT p.id, p.json FROM k JOIN post p ON p.network = k.network AND p.postID = k.postID
                        WHERE p.expired IS NULL
                        """, in: db))
                while let row = try rows.next() { whole.append((row["id"], row["json"])) }
            }
            let terms = try db.cachedStatement(sql: "SELECT termID FROM countedPost WHERE postRef = ?")
            let counting = try whole.map { try Int64.fetchAll(terms, arguments: [$0.id]) }
            // The pages waiting under those terms are added first, from the posts still whole: the interactions taken
            // back below were added.
            try PendingTallies.add(Set(counting.joined()), known: KnownMentions(), db)
            let update = try db.cachedStatement(sql: "UPDATE post SET json = ?, expired = ? WHERE id = ?")
            var acting: [Int64: MentionTally] = [:]
            for (stored, counted) in zip(whole, counting) {
                let post = try StorablePost.decode(stored.json)
                try update.execute(arguments: [post.withheld.storedJSON, time, stored.id])
                guard Interaction(post) != nil else { continue }
                for term in counted { acting[term, default: MentionTally([])].add(post) }
            }
            // A reduced post keeps no author: it leaves the conversation networks, as a later removal could not take
            // its interactions back.
            for (term, tally) in acting { try Self.subtract(tally.interactionsOnly, under: term, db) }
            return whole.count
        }
    }

    func markChecked(_ keys: [PostKey], at time: Int64) async throws {
        guard !keys.isEmpty else { return }
        try await writer.write { db in
            try ValuesList(PostKeys.rows(keys)).eachStatement { list, values in
                try values.statement(
                    """
                    WITH k(network, postID) AS (VALUES \(list))
                    UPDATE post SET checked = ? FROM k WHERE post.network = k.network AND post.postID = k.postID
                    """, in: db, trailing: [time.databaseValue]
                ).execute()
            }
        }
    }

    /// A range of the key (network, postID): every URI that starts `at://DID/` sorts between that and `at://DID0`.
    func storedKeys(ofAccount did: String) async throws -> [PostKey] {
        let prefix = "at://\(did)/"
        return try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT postID FROM post WHERE network = ? AND postID >= ? AND postID < ? ORDER BY id",
                arguments: [Network.bluesky.code, prefix, "at://\(did)0"])
        }.map { PostKey(network: .bluesky, id: $0) }
    }

    func storedKeys(byAuthor handle: String) async throws -> [PostKey] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT network, postID FROM post WHERE lower(json_extract(json, '$.user.screenName')) = lower(?)
                    ORDER BY id
                    """, arguments: [handle]
            ).compactMap { PostKeys.key(network: $0["network"], id: $0["postID"]) }
        }
    }

    func recheckState(_ term: SearchTermKey) async throws -> RecheckState? {
        try await writer.read { db in
            guard let id = try Self.id(of: term, db),
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) AS posts, count(p.checked) AS checked, min(p.checked) AS oldest
                        FROM countedPost c JOIN post p ON p.id = c.postRef WHERE c.termID = ?
                        """, arguments: [id])
            else { return nil }
            return RecheckState(posts: row["posts"], checked: row["checked"], oldestCheck: row["oldest"])
        }
    }
}
