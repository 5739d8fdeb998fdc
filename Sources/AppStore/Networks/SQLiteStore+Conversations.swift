import GRDB
import Posts

/// The conversation networks of the terms in Recents: who replies to, quotes or reposts whom; and the posts replied to
/// and quoted most.
extension SQLiteStore {
    func conversations(_ term: SearchTermKey, limit: Int) async throws -> TermConversations? {
        try await readingCounts(of: term) { db in
            guard let (termID, shown) = try Self.recent(term, db) else { return nil }
            return TermConversations(
                term: shown,
                mostRepliedTo: try Self.targets(termID, .reply, limit: limit, db),
                mostQuoted: try Self.targets(termID, .quote, limit: limit, db),
                starters: try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT m.shown, count(*) AS posts, sum(p.count) AS replies FROM interactionPost p
                            JOIN mention m ON m.id = p.authorID WHERE p.termID = ?1 AND p.kind = ?2
                            GROUP BY p.authorID ORDER BY 2 DESC, 3 DESC, m.key LIMIT ?3
                            """), arguments: [termID, InteractionKind.reply.rawValue, limit]
                ).map { TermConversations.Starter(user: $0["shown"], posts: $0["posts"], replies: $0["replies"]) })
        }
    }

    /// The most of one kind first, from the count's index; ties by network and id.
    private static func targets(
        _ termID: Int64, _ kind: InteractionKind, limit: Int, _ db: Database
    ) throws -> [TermConversations.Target] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT p.network, p.postID, m.shown, p.count FROM interactionPost p
                    LEFT JOIN mention m ON m.id = p.authorID
                    WHERE p.termID = ?1 AND p.kind = ?2 ORDER BY p.count DESC, p.network, p.postID LIMIT ?3
                    """), arguments: [termID, kind.rawValue, limit]
        ).compactMap { row in
            PostKeys.key(network: row["network"], id: row["postID"]).map {
                TermConversations.Target(post: $0, author: row["shown"], count: row["count"])
            }
        }
    }

    /// All time: the users are the first entries of their totals' index, the edges a seek per pair of them into the
    /// interactions' key. A window: both from the hourly interactions' range.
    static func conversation(
        _ termID: Int64, _ kind: InteractionKind, _ options: NetworkOptions, hours: WindowHours?, _ db: Database
    ) throws -> ConversationRead {
        var read = ConversationRead()
        let users =
            hours == nil
            ? """
            SELECT u.userID AS id, m.shown, u.received FROM interactionUser u JOIN mention m ON m.id = u.userID
            WHERE u.termID = ?1 AND u.kind = ?2 ORDER BY u.sent + u.received DESC, u.userID LIMIT ?3
            """
            : """
            SELECT t.userID AS id, m.shown, t.received FROM (
                SELECT userID, sum(sent) + sum(received) AS total, sum(received) AS received FROM (
                    SELECT sourceID AS userID, weight AS sent, 0 AS received FROM interactionHour
                    WHERE termID = ?1 AND kind = ?2 AND hour >= ?4
                    UNION ALL SELECT targetID, 0, weight FROM interactionHour
                    WHERE termID = ?1 AND kind = ?2 AND hour >= ?4)
                GROUP BY userID ORDER BY total DESC, userID LIMIT ?3
            ) AS t JOIN mention m ON m.id = t.userID ORDER BY t.total DESC, t.userID
            """
        // `?4`, the window's first hour, only where a window is asked for: GRDB wants every argument used.
        let first: StatementArguments = hours.map { [$0.first] } ?? []
        read.users = try Row.fetchAll(
            db.cachedStatement(sql: users), arguments: [termID, kind.rawValue, options.top] + first
        ).map {
            ConversationRead.User(id: $0["id"], shown: $0["shown"], received: $0["received"])
        }
        let ids = jsonIDs(read.users.map(\.id))
        let edges =
            hours == nil
            ? """
            SELECT sourceID, targetID, weight FROM interaction
            WHERE termID = ?1 AND kind = ?2 AND targetID IN (SELECT value FROM json_each(?3))
                AND sourceID IN (SELECT value FROM json_each(?3))
            """
            : """
            SELECT sourceID, targetID, sum(weight) AS weight FROM interactionHour
            WHERE termID = ?1 AND kind = ?2 AND hour >= ?4 AND targetID IN (SELECT value FROM json_each(?3))
                AND sourceID IN (SELECT value FROM json_each(?3))
            GROUP BY 1, 2
            """
        read.edges = try Row.fetchAll(
            db.cachedStatement(sql: edges), arguments: [termID, kind.rawValue, ids] + first
        ).map { ConversationRead.Edge(source: $0["sourceID"], target: $0["targetID"], weight: $0["weight"]) }
        return read
    }
}
