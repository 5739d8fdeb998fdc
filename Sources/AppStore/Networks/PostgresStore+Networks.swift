import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The co-mention networks of the terms in Recents, each read in one snapshot.
extension PostgresStore: NetworkStore {
    func network(_ term: SearchTermKey, _ options: NetworkOptions, at now: Date) async throws -> MentionNetwork? {
        try await snapshot { connection in try await Self.network(term, options, at: now, connection) }
    }

    /// The nodes from the term's counts; the edges among them are an index seek per node (all time) or one range of
    /// the hourly pairs (a window).
    private static func network(
        _ term: SearchTermKey, _ options: NetworkOptions, at now: Date, _ connection: PostgresConnection
    ) async throws -> MentionNetwork? {
        guard let (termID, shown) = try await recent(term, connection) else { return nil }
        let hours = options.window.hours(at: now)
        if let interaction = options.kind.interaction {
            return MentionNetwork(
                term: shown, options: options,
                conversation: try await conversation(termID, interaction, options, hours: hours, connection))
        }
        let mentions =
            if let hours { try await counted(termID, in: hours, connection) } else {
                try await counted(termID, atLeast: 1, connection)
            }
        let nodes = MentionNetwork.chosen(mentions, term: shown, options: options)
        let ids = nodes.map(\.id)
        let pairs =
            if let hours { try await windowPairs(termID, in: hours, among: ids, connection) } else {
                try await allTimePairs(termID, ids, connection)
            }
        guard let step = options.timeline else {
            return MentionNetwork(term: shown, options: options, nodes: nodes, pairs: pairs)
        }
        let first = hours?.first ?? 0
        return MentionNetwork(
            term: shown, options: options, nodes: nodes, pairs: pairs,
            nodeSteps: try await nodeSteps(termID, ids, from: first, by: step, connection),
            pairSteps: try await pairSteps(termID, ids, from: first, by: step, connection))
    }

    private static func allTimePairs(
        _ termID: Int64, _ ids: [Int64], _ connection: PostgresConnection
    ) async throws -> [(mention: Int64, partner: Int64, weight: Int)] {
        try await connection.rows(
            """
            SELECT mention_id, partner_id, weight FROM mention_pair
            WHERE term_id = \(termID) AND mention_id = ANY(\(ids)::bigint[]) AND partner_id = ANY(\(ids)::bigint[])
                AND mention_id < partner_id
            """
        ).map { row in
            (
                mention: try row["mention_id"].decode(Int64.self), partner: try row["partner_id"].decode(Int64.self),
                weight: try row["weight"].decode(Int.self)
            )
        }
    }

    private static func nodeSteps(
        _ termID: Int64, _ ids: [Int64], from first: Int, by step: TimelineStep, _ connection: PostgresConnection
    ) async throws -> [(mention: Int64, step: Int, count: Int)] {
        try await connection.rows(
            """
            SELECT mention_id, (hour + \(step.offset)) / \(step.hours) AS step, sum(count)::bigint AS count
            FROM mention_trend WHERE term_id = \(termID) AND mention_id = ANY(\(ids)::bigint[]) AND hour >= \(first)
            GROUP BY 1, 2
            """
        ).map { row in
            (
                mention: try row["mention_id"].decode(Int64.self), step: try row["step"].decode(Int.self),
                count: try row["count"].decode(Int.self)
            )
        }
    }

    private static func pairSteps(
        _ termID: Int64, _ ids: [Int64], from first: Int, by step: TimelineStep, _ connection: PostgresConnection
    ) async throws -> [(mention: Int64, partner: Int64, step: Int, weight: Int)] {
        try await connection.rows(
            """
            SELECT mention_id, partner_id, (hour + \(step.offset)) / \(step.hours) AS step,
                sum(weight)::bigint AS weight
            FROM mention_pair_hour WHERE term_id = \(termID) AND hour >= \(first)
                AND mention_id = ANY(\(ids)::bigint[]) AND partner_id = ANY(\(ids)::bigint[])
            GROUP BY 1, 2, 3
            """
        ).map { row in
            (
                mention: try row["mention_id"].decode(Int64.self), partner: try row["partner_id"].decode(Int64.self),
                step: try row["step"].decode(Int.self), weight: try row["weight"].decode(Int.self)
            )
        }
    }
}
