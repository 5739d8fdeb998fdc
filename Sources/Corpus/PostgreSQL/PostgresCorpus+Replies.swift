import PostgresNIO
import PostgresSupport
import Posts

/// A post's replies in the PostgreSQL corpus: the posting list of `reply:network:id`, walked in key order, every
/// parent of a thread's level in one statement.
extension PostgresCorpus {
    public func replies(to parents: [PostKey], after: String?, limit: Int) async throws -> [PostKey: CorpusReplies] {
        guard !parents.isEmpty else { return [:] }
        let terms = parents.map { IndexEntry.reply(to: $0) }
        return try await pool.read { connection in
            var bound = Int64.min
            if let after, let key = try await PostgresPageRange.key(of: after, connection) {
                bound = OrderKey.after(key)
            }
            let rows = try await connection.rows(
                """
                SELECT t.key AS term, (SELECT count(*) FROM corpus_posting c WHERE c.term_id = t.id
                       AND c.post_key >= \(bound)) AS total, page.keys
                FROM corpus_term t CROSS JOIN LATERAL (
                    SELECT array_agg(post_key ORDER BY post_key) AS keys FROM (
                        SELECT post_key FROM corpus_posting WHERE term_id = t.id AND post_key >= \(bound)
                        ORDER BY post_key LIMIT \(limit)) l) page
                WHERE t.key = ANY(\(terms))
                """)
            var pages: [String: (total: Int, keys: [Int64])] = [:]
            for row in rows {
                pages[try row["term"].decode(String.self)] = (
                    try row["total"].decode(Int.self), try row["keys"].decode([Int64]?.self) ?? []
                )
            }
            let keys = pages.values.flatMap(\.keys)
            let posts = try await loaded(keys, connection)
            var found: [PostKey: CorpusReplies] = [:]
            for (parent, term) in zip(parents, terms) {
                guard let page = pages[term], page.total > 0 else { continue }
                found[parent] = CorpusReplies(posts: page.keys.compactMap { posts[$0] }, count: page.total)
            }
            return found
        }
    }

    private func loaded(_ keys: [Int64], _ connection: PostgresConnection) async throws -> [Int64: Post] {
        guard !keys.isEmpty else { return [:] }
        var posts: [Int64: Post] = [:]
        for row in try await connection.rows("\(unescaped: PostgresPostLoader.select) WHERE p.key = ANY(\(keys))") {
            posts[try PostgresPostLoader.key(row)] = try PostgresPostLoader.post(row)
        }
        return posts
    }
}
