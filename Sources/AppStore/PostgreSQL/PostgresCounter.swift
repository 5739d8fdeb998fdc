import PostgresNIO
import PostgresSupport
import Posts

/// Counts a fetched page under a term inside the caller's PostgreSQL transaction, in a fixed number of statements
/// whatever the page's size (the page goes over as arrays, `unnest`ed). Exactly once under concurrent writers, by the
/// constraints alone: a post another server is storing at the same moment makes this `INSERT … ON CONFLICT DO
/// NOTHING` wait for that transaction and then skip it; the `RETURNING` of `counted_post` names only the posts this
/// transaction was the first to count under the term, and only their mentions are added. Rows that two writers both
/// update are touched in key order, so they queue instead of deadlocking.
struct PostgresCounter {
    let connection: PostgresConnection
    let termID: Int64

    func count(_ page: PreparedPage) async throws {
        let posts = page.storable
        guard !posts.isEmpty else { return }
        let references = try await store(posts)
        let newReferences = Set(try await newlyCounted(Array(references.values)))
        let new = posts.filter { references[$0.post.key].map(newReferences.contains) ?? false }
        let tally = page.tally(of: new)
        guard !tally.isEmpty else { return }
        let ids = try await mentionIDs(tally)
        try await add(tally, ids: ids)
    }

    /// Every post's reference: those held already, then those stored now (including any another writer stored first).
    private func store(_ posts: [StorablePost]) async throws -> [PostKey: Int64] {
        var references = try await held(PostKeyColumns(posts.map(\.post.key)))
        let missing = posts.filter { references[$0.post.key] == nil }.sorted {
            ($0.post.network.code, $0.post.id) < ($1.post.network.code, $1.post.id)
        }
        guard !missing.isEmpty else { return references }
        try await connection.run(
            """
            INSERT INTO post (network, post_id, created, json)
            SELECT * FROM unnest(\(missing.map(\.post.network.code))::smallint[], \(missing.map(\.post.id))::text[],
                \(missing.map(\.created))::bigint[], \(missing.map(\.json))::text[])
            ON CONFLICT (network, post_id) DO NOTHING
            """)
        references.merge(try await held(PostKeyColumns(missing.map(\.post.key)))) { old, _ in old }
        return references
    }

    private func held(_ keys: PostKeyColumns) async throws -> [PostKey: Int64] {
        let rows = try await connection.rows(
            """
            SELECT p.id, p.network, p.post_id FROM unnest(\(keys.networks)::int[], \(keys.ids)::text[]) AS k (network, \
            post_id)
            JOIN post p ON p.network = k.network AND p.post_id = k.post_id
            """)
        var references: [PostKey: Int64] = [:]
        for row in rows {
            guard let key = try PostKeyColumns.key(row) else { continue }
            references[key] = try row["id"].decode(Int64.self)
        }
        return references
    }

    /// The references not yet counted under the term, now marked counted.
    private func newlyCounted(_ references: [Int64]) async throws -> [Int64] {
        try await connection.rows(
            """
            INSERT INTO counted_post (term_id, post_ref) SELECT \(termID), r FROM \
            unnest(\(references.sorted())::bigint[]) AS r
            ON CONFLICT DO NOTHING RETURNING post_ref
            """
        ).map { try $0["post_ref"].decode(Int64.self) }
    }

    /// Each mention's id, created if new (keeping the first spelling seen).
    private func mentionIDs(_ tally: MentionTally) async throws -> [String: Int64] {
        let mentions = tally.mentions.sorted { $0.key < $1.key }
        try await connection.run(
            """
            INSERT INTO mention (kind, key, shown)
            SELECT * FROM unnest(\(mentions.map(\.kind.code))::smallint[], \(mentions.map(\.key))::text[], \
            \(mentions.map(\.shown))::text[])
            ON CONFLICT (key) DO NOTHING
            """)
        let rows = try await connection.rows(
            "SELECT key, id FROM mention WHERE key = ANY(\(mentions.map(\.key))::text[])")
        var ids: [String: Int64] = [:]
        for row in rows {
            ids[try row["key"].decode(String.self)] = try row["id"].decode(Int64.self)
        }
        return ids
    }

    /// The counts, and the same counts by hour for the trends.
    private func add(_ tally: MentionTally, ids: [String: Int64]) async throws {
        let counts = tally.mentions.compactMap { mention in ids[mention.key].map { (id: $0, count: mention.count) } }
            .sorted { $0.id < $1.id }
        try await connection.run(
            """
            INSERT INTO mention_count (term_id, mention_id, count)
            SELECT \(termID), m, c FROM unnest(\(counts.map(\.id))::bigint[], \(counts.map(\.count))::int[]) AS t (m, c)
            ON CONFLICT (term_id, mention_id) DO UPDATE SET count = mention_count.count + excluded.count
            """)
        let hours = tally.hours.compactMap { entry in
            ids[tally.mentions[entry.mention].key].map { (id: $0, hour: entry.hour, count: entry.count) }
        }.sorted { ($0.id, $0.hour) < ($1.id, $1.hour) }
        try await connection.run(
            """
            INSERT INTO mention_trend (term_id, mention_id, hour, count)
            SELECT \(termID), m, h, c FROM unnest(\(hours.map(\.id))::bigint[], \(hours.map(\.hour))::int[], \
            \(hours.map(\.count))::int[]) AS t (m, h, c)
            ON CONFLICT (term_id, mention_id, hour) DO UPDATE SET count = mention_trend.count + excluded.count
            """)
        try await addPairs(tally, ids: ids)
    }

    /// The co-mention weights: each pair both ways in the totals, once by the hour (the lower id first), in key order.
    private func addPairs(_ tally: MentionTally, ids: [String: Int64]) async throws {
        let hours = tally.pairs.compactMap { pair in
            MentionPair(tally, pair, ids: ids).map { (hour: pair.hour, pair: $0, weight: pair.weight) }
        }.sorted { ($0.hour, $0.pair.mention, $0.pair.partner) < ($1.hour, $1.pair.mention, $1.pair.partner) }
        guard !hours.isEmpty else { return }
        try await connection.run(
            """
            INSERT INTO mention_pair_hour (term_id, hour, mention_id, partner_id, weight)
            SELECT \(termID), h, m, p, w FROM unnest(\(hours.map(\.hour))::int[], \
            \(hours.map(\.pair.mention))::bigint[], \
            \(hours.map(\.pair.partner))::bigint[], \(hours.map(\.weight))::int[]) AS t (h, m, p, w)
            ON CONFLICT (term_id, hour, mention_id, partner_id) DO UPDATE SET weight = mention_pair_hour.weight + \
            excluded.weight
            """)
        let totals = tally.pairTotals.compactMap { pair in
            MentionPair(tally, pair, ids: ids).map { [($0, pair.weight), ($0.reversed, pair.weight)] }
        }.flatMap { $0 }.sorted { ($0.0.mention, $0.0.partner) < ($1.0.mention, $1.0.partner) }
        try await connection.run(
            """
            INSERT INTO mention_pair (term_id, mention_id, partner_id, weight)
            SELECT \(termID), m, p, w FROM unnest(\(totals.map(\.0.mention))::bigint[], \
            \(totals.map(\.0.partner))::bigint[], \
            \(totals.map(\.1))::int[]) AS t (m, p, w)
            ON CONFLICT (term_id, mention_id, partner_id) DO UPDATE SET weight = mention_pair.weight + excluded.weight
            """)
    }
}
