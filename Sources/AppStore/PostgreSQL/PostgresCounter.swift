import PostgresNIO
import PostgresSupport
import Posts

/// Counts fetched pages in the caller's PostgreSQL transaction through the store's functions (`PostgresFunctions`):
/// one statement a page, two when only some of its posts are new for the term. Exactly once under concurrent writers,
/// by the constraints alone: a post another server is storing at the same moment makes the insert wait for that
/// transaction and then skip it, and `counted_post`'s key decides which posts this transaction counts.
struct PostgresCounter {
    let connection: PostgresConnection

    /// The page under a term already in Recents, which keeps its place: the term's id, nil when it is not there.
    func count(_ page: PreparedPage, under term: SearchTermKey) async throws -> Int64? {
        let row = try await connection.rows(
            """
            \(serversOf: page)SELECT term_id, fresh FROM smashtag_count_term(\(term.key), \(PostgresChanges.channel), \
            \(page: page))
            """
        ).first
        guard let row, let termID = try row["term_id"].decode(Int64?.self) else { return nil }
        try await addCounts(of: page, fresh: try row["fresh"].decode([Int]?.self), under: termID)
        return termID
    }

    /// When only some of the page's posts were new for the term (`fresh`: their places, from 1), their mentions.
    func addCounts(of page: PreparedPage, fresh: [Int]?, under termID: Int64) async throws {
        guard let fresh else { return }
        let tally = page.tally(of: fresh.map { page.storable[$0 - 1] })
        guard !tally.isEmpty else { return }
        try await connection.run("SELECT smashtag_add_counts(\(termID), false, \(tally: tally))")
    }
}

extension PostgresQuery.StringInterpolation {
    /// A page as the store's functions take it: its posts' four arrays, then its tally's twenty-one.
    mutating func appendInterpolation(page: PreparedPage) {
        let posts = page.storable
        appendInterpolation(posts.map(\.post.network.code))
        appendLiteral(", ")
        appendInterpolation(posts.map(\.post.id))
        appendLiteral(", ")
        appendInterpolation(posts.map(\.created))
        appendLiteral(", ")
        appendInterpolation(posts.map(\.json))
        appendLiteral(", ")
        appendInterpolation(tally: page.tally)
    }

    /// A tally's mentions (sorted by key, so that new ones are numbered in key order as on SQLite), their hours and
    /// their pairs, each mention named by its place from 1.
    mutating func appendInterpolation(tally: MentionTally) {
        let order = tally.mentions.indices.sorted { tally.mentions[$0].key < tally.mentions[$1].key }
        var place = [Int](repeating: 0, count: order.count)
        for (sorted, index) in order.enumerated() { place[index] = sorted + 1 }
        let mentions = order.map { tally.mentions[$0] }
        appendInterpolation(mentions.map(\.kind.code))
        appendLiteral(", ")
        appendInterpolation(mentions.map(\.key))
        appendLiteral(", ")
        appendInterpolation(mentions.map(\.shown))
        let (hours, pairs, interactions) = (tally.hours, tally.pairs, tally.interactions)
        for column in [
            mentions.map(\.count), hours.map { place[$0.mention] }, hours.map(\.hour), hours.map(\.count),
            pairs.map { place[$0.first] }, pairs.map { place[$0.second] }, pairs.map(\.hour), pairs.map(\.weight),
            interactions.map(\.kind.rawValue), interactions.map { place[$0.source] },
            interactions.map { place[$0.target] }, interactions.map(\.hour), interactions.map(\.weight),
        ] {
            appendLiteral(", ")
            appendInterpolation(column)
        }
        let posts = tally.interactedPosts
        appendLiteral(", ")
        appendInterpolation(posts.map(\.kind.rawValue))
        appendLiteral(", ")
        appendInterpolation(posts.map(\.post.network.code))
        appendLiteral(", ")
        appendInterpolation(posts.map(\.post.id))
        appendLiteral(", ")
        // 0: no author known (places start at 1).
        appendInterpolation(posts.map { $0.author.map { place[$0] } ?? 0 })
        appendLiteral(", ")
        appendInterpolation(posts.map(\.count))
    }
}
