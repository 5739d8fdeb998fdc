import PostgresNIO
import PostgresSupport
import Posts

/// The conversation networks of the terms in Recents: who replies to, quotes or reposts whom; and the posts replied to
/// and quoted most.
extension PostgresStore {
    func conversations(_ term: SearchTermKey, limit: Int) async throws -> TermConversations? {
        try await snapshot { connection in
            guard let (termID, shown) = try await Self.recent(term, connection) else { return nil }
            let starters = try await connection.rows(
                """
                SELECT m.shown, count(*) AS posts, sum(p.count)::bigint AS replies FROM interaction_post p
                JOIN mention m ON m.id = p.author_id
                WHERE p.term_id = \(termID) AND p.kind = \(InteractionKind.reply.rawValue)
                GROUP BY p.author_id, m.shown, m.key ORDER BY 2 DESC, 3 DESC, m.key LIMIT \(limit)
                """
            ).map {
                TermConversations.Starter(
                    user: try $0["shown"].decode(String.self), posts: try $0["posts"].decode(Int.self),
                    replies: try $0["replies"].decode(Int.self))
            }
            return TermConversations(
                term: shown, mostRepliedTo: try await Self.targets(termID, .reply, limit: limit, connection),
                mostQuoted: try await Self.targets(termID, .quote, limit: limit, connection), starters: starters)
        }
    }

    /// The most of one kind first, from the count's index; ties by network and id.
    private static func targets(
        _ termID: Int64, _ kind: InteractionKind, limit: Int, _ connection: PostgresConnection
    ) async throws -> [TermConversations.Target] {
        try await connection.rows(
            """
            SELECT p.network::bigint AS network, p.post_id, m.shown, p.count::bigint AS count FROM interaction_post p
            LEFT JOIN mention m ON m.id = p.author_id
            WHERE p.term_id = \(termID) AND p.kind = \(kind.rawValue)
            ORDER BY p.count DESC, p.network, p.post_id COLLATE "C" LIMIT \(limit)
            """
        ).compactMap { row in
            guard let network = Network(code: try row["network"].decode(Int.self)) else { return nil }
            return TermConversations.Target(
                post: PostKey(network: network, id: try row["post_id"].decode(String.self)),
                author: try row["shown"].decode(String?.self), count: try row["count"].decode(Int.self))
        }
    }

    /// All time: the users are the first entries of their totals' index, the edges a seek per pair of them into the
    /// interactions' key. A window: both from the hourly interactions' range.
    static func conversation(
        _ termID: Int64, _ kind: InteractionKind, _ options: NetworkOptions, hours: WindowHours?,
        _ connection: PostgresConnection
    ) async throws -> ConversationRead {
        var read = ConversationRead()
        let users: PostgresQuery =
            if let hours {
                """
                SELECT t.user_id AS id, m.shown, t.received FROM (
                    SELECT user_id, sum(sent) + sum(received) AS total, sum(received)::bigint AS received FROM (
                        SELECT source_id AS user_id, weight AS sent, 0 AS received FROM interaction_hour
                        WHERE term_id = \(termID) AND kind = \(kind.rawValue) AND hour >= \(hours.first)
                        UNION ALL SELECT target_id, 0, weight FROM interaction_hour
                        WHERE term_id = \(termID) AND kind = \(kind.rawValue) AND hour >= \(hours.first)) AS e
                    GROUP BY user_id ORDER BY total DESC, user_id LIMIT \(options.top)
                ) AS t JOIN mention m ON m.id = t.user_id ORDER BY t.total DESC, t.user_id
                """
            } else {
                """
                SELECT u.user_id AS id, m.shown, u.received::bigint AS received FROM interaction_user u
                JOIN mention m ON m.id = u.user_id
                WHERE u.term_id = \(termID) AND u.kind = \(kind.rawValue)
                ORDER BY u.sent + u.received DESC, u.user_id LIMIT \(options.top)
                """
            }
        read.users = try await connection.rows(users).map {
            ConversationRead.User(
                id: try $0["id"].decode(Int64.self), shown: try $0["shown"].decode(String.self),
                received: try $0["received"].decode(Int.self))
        }
        let ids = read.users.map(\.id)
        let edges: PostgresQuery =
            if let hours {
                """
                SELECT source_id, target_id, sum(weight)::bigint AS weight FROM interaction_hour
                WHERE term_id = \(termID) AND kind = \(kind.rawValue) AND hour >= \(hours.first)
                    AND target_id = ANY(\(ids)::bigint[]) AND source_id = ANY(\(ids)::bigint[])
                GROUP BY 1, 2
                """
            } else {
                """
                SELECT source_id, target_id, weight::bigint AS weight FROM interaction
                WHERE term_id = \(termID) AND kind = \(kind.rawValue) AND target_id = ANY(\(ids)::bigint[])
                    AND source_id = ANY(\(ids)::bigint[])
                """
            }
        read.edges = try await connection.rows(edges).map {
            ConversationRead.Edge(
                source: try $0["source_id"].decode(Int64.self), target: try $0["target_id"].decode(Int64.self),
                weight: try $0["weight"].decode(Int.self))
        }
        return read
    }
}
