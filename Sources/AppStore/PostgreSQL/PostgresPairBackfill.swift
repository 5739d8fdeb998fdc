import PostgresNIO
import PostgresSupport
import Posts

/// The co-mention weights of what earlier releases counted, from the posts they stored (every counted post is still
/// stored), counted as `MentionTally` counts a post's pairs: in Swift, as the database's `lower()` would fold
/// mentions by its own locale.
enum PostgresPairBackfill {
    private struct Key: Hashable {
        let termID: Int64
        let pair: MentionPair
        let hour: Int
    }

    static func run(_ connection: PostgresConnection) async throws {
        var ids: [String: Int64] = [:]
        for row in try await connection.rows("SELECT key, id FROM mention") {
            ids[try row["key"].decode(String.self)] = try row["id"].decode(Int64.self)
        }
        var weights: [Key: Int] = [:]
        let rows = try await connection.rows(
            """
            SELECT p.json, array_agg(c.term_id) AS terms FROM post p JOIN counted_post c ON c.post_ref = p.id
            GROUP BY p.id
            """)
        for row in rows {
            // A post this release cannot read any more adds no pairs.
            guard let post = try? StorablePost.decode(try row["json"].decode(String.self)) else { continue }
            let terms = try row["terms"].decode([Int64].self)
            let tally = MentionTally([post])
            for pair in tally.pairs {
                guard let mentionPair = MentionPair(tally, pair, ids: ids) else { continue }
                for termID in terms {
                    weights[Key(termID: termID, pair: mentionPair, hour: pair.hour), default: 0] += pair.weight
                }
            }
        }
        guard !weights.isEmpty else { return }
        let entries = Array(weights)
        try await connection.run(
            """
            INSERT INTO mention_pair_hour (term_id, hour, mention_id, partner_id, weight)
            SELECT * FROM unnest(\(entries.map(\.key.termID))::bigint[], \(entries.map(\.key.hour))::int[], \
            \(entries.map(\.key.pair.mention))::bigint[], \(entries.map(\.key.pair.partner))::bigint[], \
            \(entries.map(\.value))::int[])
            """)
        try await connection.run(
            """
            INSERT INTO mention_pair (term_id, mention_id, partner_id, weight)
            SELECT term_id, mention_id, partner_id, sum(weight) FROM mention_pair_hour GROUP BY 1, 2, 3
            UNION ALL SELECT term_id, partner_id, mention_id, sum(weight) FROM mention_pair_hour GROUP BY 1, 2, 3
            """)
    }

    /// Who replied to, quoted and reposted whom (v10), added by the counting's own function from the posts as stored.
    static func interactions(_ connection: PostgresConnection) async throws {
        var tallies: [Int64: MentionTally] = [:]
        let rows = try await connection.rows(
            """
            SELECT p.json, array_agg(c.term_id) AS terms FROM post p JOIN counted_post c ON c.post_ref = p.id
            GROUP BY p.id
            """)
        for row in rows {
            guard let post = try? StorablePost.decode(try row["json"].decode(String.self)), Interaction(post) != nil
            else { continue }
            for termID in try row["terms"].decode([Int64].self) { tallies[termID, default: MentionTally([])].add(post) }
        }
        for (termID, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            try await connection.run("SELECT smashtag_add_counts(\(termID), false, \(tally: tally.interactionsOnly))")
        }
    }
}
