import Logging
import PostgresNIO
import Posts
import Smashtag

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

    private static func first(_ query: PostgresQuery, _ connection: PostgresConnection, column: String) async throws -> Int64? {
        try await connection.query(query, logger: logger).collect().first.map { try $0.makeRandomAccess()[column].decode(Int64.self) }
    }

    private static func findOrCreateTerm(_ term: SearchTermKey, _ connection: PostgresConnection) async throws -> Int64 {
        if let id = try await first("SELECT id FROM recent WHERE key = \(term.key)", connection, column: "id") { return id }
        return try await first("""
            INSERT INTO recent (key, term, searched) VALUES (\(term.key), \(term.shown), nextval('recent_searched')) RETURNING id
            """, connection, column: "id")!
    }

    private static func count(_ post: Post, termID: Int64, _ connection: PostgresConnection) async throws {
        let network = post.network.code
        var reference = try await first("SELECT id FROM post WHERE network = \(network) AND post_id = \(post.id)", connection, column: "id")
        if let known = reference {
            let counted = try await first("SELECT post_ref FROM counted_post WHERE term_id = \(termID) AND post_ref = \(known)", connection, column: "post_ref")
            guard counted == nil else { return }
        } else {
            reference = try await first("""
                INSERT INTO post (network, post_id, created, json) VALUES (\(network), \(post.id), \(post.created.millisecondsSince1970), \(post.codableJSON)) RETURNING id
                """, connection, column: "id")
        }
        try await connection.query("INSERT INTO counted_post (term_id, post_ref) VALUES (\(termID), \(reference!))", logger: logger)
        let hour = TrendHour.of(post.created)
        for mention in MentionTally.distinctMentions(of: post) {
            try await countMention(mention, hour: hour, termID: termID, connection)
        }
    }

    private static func countMention(_ mention: (kind: Mention.Kind, key: String, shown: String), hour: Int, termID: Int64,
                                     _ connection: PostgresConnection) async throws {
        var mentionID = try await first("SELECT id FROM mention WHERE lower(key) = \(mention.key)", connection, column: "id")
        if mentionID == nil {
            let kind = mention.kind.code
            mentionID = try await first("INSERT INTO mention (kind, key, shown) VALUES (\(kind), \(mention.key), \(mention.shown)) RETURNING id", connection, column: "id")
        }
        let id = mentionID!
        if try await first("SELECT count::bigint AS count FROM mention_count WHERE term_id = \(termID) AND mention_id = \(id)", connection, column: "count") != nil {
            try await connection.query("UPDATE mention_count SET count = count + 1 WHERE term_id = \(termID) AND mention_id = \(id)", logger: logger)
        } else {
            try await connection.query("INSERT INTO mention_count (term_id, mention_id, count) VALUES (\(termID), \(id), 1)", logger: logger)
        }
        if try await first("SELECT count::bigint AS count FROM mention_trend WHERE term_id = \(termID) AND mention_id = \(id) AND hour = \(hour)", connection, column: "count") != nil {
            try await connection.query("UPDATE mention_trend SET count = count + 1 WHERE term_id = \(termID) AND mention_id = \(id) AND hour = \(hour)", logger: logger)
        } else {
            try await connection.query("INSERT INTO mention_trend (term_id, mention_id, hour, count) VALUES (\(termID), \(id), \(hour), 1)", logger: logger)
        }
    }
}
