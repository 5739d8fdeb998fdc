import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's counted posts by network: one grouped read of the term's `counted_post` rows and their posts, in one
/// snapshot with the term's row.
extension PostgresStore: OriginsStore {
    private static func servers(_ rows: [PostgresRandomAccessRow]) throws -> [(server: String, posts: Int)] {
        try rows.map { (try $0["server"].decode(String.self), try $0["posts"].decode(Int.self)) }
    }

    func origins(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> TermOrigins? {
        let since = window.earliestCreated(at: now)
        return try await snapshot { connection -> TermOrigins? in
            guard let (termID, shown) = try await Self.recent(term, connection) else { return nil }
            let counts = try await connection.rows(
                """
                SELECT p.network, count(*) AS posts FROM counted_post c JOIN post p ON p.id = c.post_ref
                WHERE c.term_id = \(termID) AND p.created >= \(since) GROUP BY p.network
                """
            ).compactMap { row -> (network: Network, posts: Int)? in
                guard let network = Network(code: try row["network"].decode(Int.self)) else { return nil }
                return (network, try row["posts"].decode(Int.self))
            }
            let writtenOn = try await connection.rows(
                """
                SELECT lower(split_part(split_part(p.post_id, '://', 2), '/', 1)) AS server, count(*) AS posts
                FROM counted_post c JOIN post p ON p.id = c.post_ref
                WHERE c.term_id = \(termID) AND p.created >= \(since) AND p.network = \(Network.mastodon.code)
                AND p.post_id LIKE 'http%' GROUP BY 1
                """)
            let seenOn = try await connection.rows(
                """
                SELECT s.server, count(*) AS posts FROM counted_post c JOIN post p ON p.id = c.post_ref
                JOIN post_server s ON s.network = p.network AND s.post_id = p.post_id
                WHERE c.term_id = \(termID) AND p.created >= \(since) GROUP BY s.server
                """)
            return TermOrigins(
                term: shown, window: window, counts: counts, writtenOn: try Self.servers(writtenOn),
                seenOn: try Self.servers(seenOn))
        }
    }
}
