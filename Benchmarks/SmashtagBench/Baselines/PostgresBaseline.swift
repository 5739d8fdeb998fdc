import AppStore
import Logging
import PostgresNIO
import PostgresSupport
import Posts

/// The lecture's approach to counting on PostgreSQL, the baseline of the PostgreSQL counting figure: as
/// `SQLiteBaseline`, each post and then each of its mentions is looked up by its own query and inserted or updated
/// when missing, a round trip each, one transaction per page; mentions matched case-insensitively (`lower(key)`),
/// which no index serves. It writes the same tables as the store, so both run on the same database.
public struct PostgresBaseline: Sendable {
    let client: PostgresClient

    public init?(database: AppDatabase) {
        guard let client = database.postgresClient else { return nil }
        self.client = client
    }

    public func count(_ posts: [Post], under term: String) async throws {
        let term = try SearchTermKey(term)
        try await client.withTransaction(logger: Self.logger) { connection in
            let termID = try await Self.findOrCreateTerm(term, connection)
            for post in posts { try await Self.count(post, termID: termID, connection) }
        }
    }

    private static let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

    private static func findOrCreateTerm(_ term: SearchTermKey, _ connection: PostgresConnection) async throws -> Int64
    {
        if let id = try await connection.value("SELECT id FROM recent WHERE key = \(term.key)", "id", as: Int64.self) {
            return id
        }
        return try await connection.value(
            """
            INSERT INTO recent (key, term, searched) VALUES (\(term.key), \(term.shown), nextval('recent_searched')) \
            RETURNING id
            """, "id", as: Int64.self)!
    }

    private static func count(_ post: Post, termID: Int64, _ connection: PostgresConnection) async throws {
        let network = post.network.code
        var reference = try await connection.value(
            "SELECT id FROM post WHERE network = \(network) AND post_id = \(post.id)", "id", as: Int64.self)
        if let known = reference {
            let counted = try await connection.value(
                "SELECT post_ref FROM counted_post WHERE term_id = \(termID) AND post_ref = \(known)", "post_ref",
                as: Int64.self)
            guard counted == nil else { return }
        } else {
            reference = try await connection.value(
                """
                INSERT INTO post (network, post_id, created, json) VALUES (\(network), \(post.id), \
                \(post.created.millisecondsSince1970), \(post.storedJSON)) RETURNING id
                """, "id", as: Int64.self)
        }
        try await connection.run("INSERT INTO counted_post (term_id, post_ref) VALUES (\(termID), \(reference!))")
        let hour = TrendHour.of(post.created)
        var ids: [Int64] = []
        for mention in MentionTally.distinctMentions(of: post) {
            ids.append(try await countMention(mention, hour: hour, termID: termID, connection))
        }
        try await countPairs(Array(ids.prefix(MentionTally.pairedMentionLimit)), hour: hour, termID: termID, connection)
    }

    /// Each pair of the post's mentions, found or created like the counts, once (the lower id first) in total and by
    /// the hour. It leaves the counts' strongest partners empty: less work than the store does.
    private static func countPairs(
        _ ids: [Int64], hour: Int, termID: Int64, _ connection: PostgresConnection
    ) async throws {
        for (offset, one) in ids.enumerated() {
            for other in ids.dropFirst(offset + 1) {
                let (low, high) = (min(one, other), max(one, other))
                if try await connection.value(
                    """
                    SELECT weight::bigint AS weight FROM mention_pair_hour WHERE term_id = \(termID) \
                    AND hour = \(hour) \
                    AND mention_id = \(low) AND partner_id = \(high)
                    """, "weight", as: Int64.self) != nil
                {
                    try await connection.run(
                        """
                        UPDATE mention_pair_hour SET weight = weight + 1 WHERE term_id = \(termID) AND hour = \(hour) \
                        AND mention_id = \(low) AND partner_id = \(high)
                        """)
                } else {
                    try await connection.run(
                        """
                        INSERT INTO mention_pair_hour (term_id, hour, mention_id, partner_id, weight) VALUES \
                        (\(termID), \(hour), \(low), \(high), 1)
                        """)
                }
                try await countTotal(low, high, termID: termID, connection)
            }
        }
    }

    private static func countTotal(
        _ mention: Int64, _ partner: Int64, termID: Int64, _ connection: PostgresConnection
    ) async throws {
        if try await connection.value(
            """
            SELECT weight::bigint AS weight FROM mention_pair WHERE term_id = \(termID) AND mention_id = \(mention) \
            AND partner_id = \(partner)
            """, "weight", as: Int64.self) != nil
        {
            try await connection.run(
                """
                UPDATE mention_pair SET weight = weight + 1 WHERE term_id = \(termID) AND mention_id = \(mention) AND \
                partner_id = \(partner)
                """)
        } else {
            try await connection.run(
                """
                INSERT INTO mention_pair (term_id, mention_id, partner_id, weight) VALUES (\(termID), \(mention), \
                \(partner), 1)
                """)
        }
    }

    private static func countMention(
        _ mention: (kind: Mention.Kind, key: String, shown: String), hour: Int, termID: Int64,
        _ connection: PostgresConnection
    ) async throws -> Int64 {
        var mentionID = try await connection.value(
            "SELECT id FROM mention WHERE lower(key) = \(mention.key)", "id", as: Int64.self)
        if mentionID == nil {
            let kind = mention.kind.code
            mentionID = try await connection.value(
                """
                INSERT INTO mention (kind, key, shown) VALUES (\(kind), \(mention.key), \(mention.shown)) \
                RETURNING id
                """,
                "id", as: Int64.self)
        }
        let id = mentionID!
        if try await connection.value(
            "SELECT count::bigint AS count FROM mention_count WHERE term_id = \(termID) AND mention_id = \(id)",
            "count", as: Int64.self) != nil
        {
            try await connection.run(
                "UPDATE mention_count SET count = count + 1 WHERE term_id = \(termID) AND mention_id = \(id)")
        } else {
            try await connection.run(
                """
                INSERT INTO mention_count (term_id, mention_id, count, partner_ids, partner_weights, partner_names) \
                VALUES (\(termID), \(id), 1, '{}', '{}', '{}')
                """)
        }
        if try await connection.value(
            """
            SELECT count::bigint AS count FROM mention_trend WHERE term_id = \(termID) AND mention_id = \(id) AND \
            hour = \(hour)
            """,
            "count", as: Int64.self) != nil
        {
            try await connection.run(
                """
                UPDATE mention_trend SET count = count + 1 WHERE term_id = \(termID) AND mention_id = \(id) AND \
                hour = \(hour)
                """
            )
        } else {
            try await connection.run(
                "INSERT INTO mention_trend (term_id, mention_id, hour, count) VALUES (\(termID), \(id), \(hour), 1)")
        }
        return id
    }
}
