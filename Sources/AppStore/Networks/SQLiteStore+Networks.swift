import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The co-mention networks of the terms in Recents.
extension SQLiteStore: NetworkStore {
    func network(_ term: SearchTermKey, _ options: NetworkOptions, at now: Date) async throws -> MentionNetwork? {
        try await readingCounts(of: term) { db in try Self.network(term, options, at: now, db) }
    }

    /// The nodes from the term's counts; the edges among them are a seek per pair of nodes into the pairs' key
    /// (all time) or one range of the hourly pairs (a window).
    private static func network(
        _ term: SearchTermKey, _ options: NetworkOptions, at now: Date, _ db: Database
    ) throws -> MentionNetwork? {
        guard let (termID, shown) = try recent(term, db) else { return nil }
        let hours = options.window.hours(at: now)
        if let interaction = options.kind.interaction {
            return MentionNetwork(
                term: shown, options: options,
                conversation: try conversation(termID, interaction, options, hours: hours, db))
        }
        let mentions = try hours.map { try counted(termID, in: $0, db) } ?? counted(termID, atLeast: 1, db)
        let nodes = MentionNetwork.chosen(mentions, term: shown, options: options)
        let ids = nodes.map(\.id)
        let pairs = try hours.map { try windowPairs(termID, in: $0, among: ids, db) } ?? allTimePairs(termID, ids, db)
        guard let step = options.timeline else {
            return MentionNetwork(term: shown, options: options, nodes: nodes, pairs: pairs)
        }
        let first = hours?.first ?? 0
        return MentionNetwork(
            term: shown, options: options, nodes: nodes, pairs: pairs,
            nodeSteps: try nodeSteps(termID, ids, from: first, by: step, db),
            pairSteps: try pairSteps(termID, ids, from: first, by: step, db))
    }

    private static func allTimePairs(
        _ termID: Int64, _ ids: [Int64], _ db: Database
    ) throws -> [(mention: Int64, partner: Int64, weight: Int)] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT mentionID, partnerID, weight FROM mentionPair
                    WHERE termID = ?1 AND mentionID IN (SELECT value FROM json_each(?2))
                        AND partnerID IN (SELECT value FROM json_each(?2)) AND mentionID < partnerID
                    """), arguments: [termID, jsonIDs(ids)]
        ).map { (mention: $0["mentionID"], partner: $0["partnerID"], weight: $0["weight"]) }
    }

    private static func nodeSteps(
        _ termID: Int64, _ ids: [Int64], from first: Int, by step: TimelineStep, _ db: Database
    ) throws -> [(mention: Int64, step: Int, count: Int)] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT mentionID, (hour + ?3) / ?4 AS step, sum(count) AS count FROM mentionTrend
                    WHERE termID = ?1 AND mentionID IN (SELECT value FROM json_each(?2)) AND hour >= ?5 GROUP BY 1, 2
                    """), arguments: [termID, jsonIDs(ids), step.offset, step.hours, first]
        ).map { (mention: $0["mentionID"], step: $0["step"], count: $0["count"]) }
    }

    private static func pairSteps(
        _ termID: Int64, _ ids: [Int64], from first: Int, by step: TimelineStep, _ db: Database
    ) throws -> [(mention: Int64, partner: Int64, step: Int, weight: Int)] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT mentionID, partnerID, (hour + ?3) / ?4 AS step, sum(weight) AS weight FROM mentionPairHour
                    WHERE termID = ?1 AND hour >= ?5 AND mentionID IN (SELECT value FROM json_each(?2))
                        AND partnerID IN (SELECT value FROM json_each(?2))
                    GROUP BY 1, 2, 3
                    """), arguments: [termID, jsonIDs(ids), step.offset, step.hours, first]
        ).map { (mention: $0["mentionID"], partner: $0["partnerID"], step: $0["step"], weight: $0["weight"]) }
    }
}
