import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What earlier releases did not count, from the posts they stored: every counted post is still stored (a post goes
/// only when no term counts it), so what is filled in adds up as if it had been counted from the start.
enum TrendBackfill {
    private struct Key: Hashable {
        let termID: Int64
        let mention: String
        let hour: Int
    }

    /// The hourly counts (v4).
    static func run(_ db: Database) throws {
        var counts: [Key: Int] = [:]
        try eachCountedPost(db) { post, terms in
            let hour = TrendHour.of(post.created)
            for mention in MentionTally.distinctMentions(of: post) {
                for termID in terms { counts[Key(termID: termID, mention: mention.key, hour: hour), default: 0] += 1 }
            }
        }
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO mentionTrend(termID, mentionID, hour, count) SELECT ?, id, ?, ? FROM mention WHERE key = ?
                """)
        for (key, count) in counts { try insert.execute(arguments: [key.termID, key.hour, count, key.mention]) }
    }

    private struct PairKey: Hashable {
        let termID: Int64
        let pair: MentionPair
        let hour: Int
    }

    /// The co-mention weights by hour and in total (v7), counted as `MentionTally` counts a post's pairs.
    static func pairs(_ db: Database) throws {
        let ids = Dictionary(
            try Row.fetchAll(db, sql: "SELECT key, id FROM mention").map { ($0["key"] as String, $0["id"] as Int64) }
        ) { first, _ in first }
        var weights: [PairKey: Int] = [:]
        try eachCountedPost(db) { post, terms in
            let tally = MentionTally([post])
            for pair in tally.pairs {
                guard let mentionPair = MentionPair(tally, pair, ids: ids) else { continue }
                for termID in terms {
                    weights[PairKey(termID: termID, pair: mentionPair, hour: pair.hour), default: 0] += pair.weight
                }
            }
        }
        let insert = try db.makeStatement(
            sql: "INSERT INTO mentionPairHour(termID, hour, mentionID, partnerID, weight) VALUES (?, ?, ?, ?, ?)")
        for (key, weight) in weights {
            try insert.execute(arguments: [key.termID, key.hour, key.pair.mention, key.pair.partner, weight])
        }
        try db.execute(
            sql: """
                INSERT INTO mentionPair(termID, mentionID, partnerID, weight)
                    SELECT termID, mentionID, partnerID, sum(weight) FROM mentionPairHour GROUP BY 1, 2, 3;
                INSERT INTO mentionPair(termID, mentionID, partnerID, weight)
                    SELECT termID, partnerID, mentionID, sum(weight) FROM mentionPairHour GROUP BY 1, 2, 3;
                """)
    }

    /// Who replied to, quoted and reposted whom (v13), counted as pages are counted, from the posts as stored.
    static func interactions(_ db: Database) throws {
        var tallies: [Int64: MentionTally] = [:]
        try eachCountedPost(db) { post, terms in
            guard Interaction(post) != nil else { return }
            for termID in terms { tallies[termID, default: MentionTally([])].add(post) }
        }
        for (termID, tally) in tallies {
            // A tally of interactions only (`MentionTally.interactionsOnly`): the users' rows, none of their counts.
            _ = try SQLiteCounter(db: db, termID: termID, counted: [], known: KnownMentions())
                .add(tally.interactionsOnly)
        }
    }

    /// Each counted post decoded once, with every term that counted it. A post this release cannot read any more
    /// is skipped: its counts stay as they were.
    private static func eachCountedPost(_ db: Database, _ body: (Post, [Int64]) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT p.json, json_group_array(c.termID) AS terms FROM post p JOIN countedPost c ON c.postRef = p.id
                GROUP BY p.id
                """)
        let decoder = JSONDecoder()
        while let row = try rows.next() {
            let json: String = row["json"]
            let termIDs: String = row["terms"]
            guard let post = try? StorablePost.decode(json),
                let terms = try? decoder.decode([Int64].self, from: Data(termIDs.utf8))
            else { continue }
            try body(post, terms)
        }
    }
}
