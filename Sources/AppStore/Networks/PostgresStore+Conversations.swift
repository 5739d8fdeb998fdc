import PostgresNIO
import PostgresSupport
import Posts

/// The conversation networks of the terms in Recents: who replies to, quotes or reposts whom.
extension PostgresStore {
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
                SELECT e.user_id AS id, m.shown, sum(e.received)::bigint AS received FROM (
                    SELECT source_id AS user_id, weight AS sent, 0 AS received FROM interaction_hour
                    WHERE term_id = \(termID) AND kind = \(kind.rawValue) AND hour >= \(hours.first)
                    UNION ALL SELECT target_id, 0, weight FROM interaction_hour
                    WHERE term_id = \(termID) AND kind = \(kind.rawValue) AND hour >= \(hours.first)
                ) AS e JOIN mention m ON m.id = e.user_id
                GROUP BY e.user_id, m.shown ORDER BY sum(e.sent) + sum(e.received) DESC, e.user_id LIMIT \(options.top)
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
