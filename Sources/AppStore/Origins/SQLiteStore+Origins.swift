import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's counted posts by network: one grouped read of the term's `countedPost` rows and their posts.
extension SQLiteStore: OriginsStore {
    /// A fleet's posts are named by their `uri` (`https://home.social/users/alice/statuses/1`): its host is where the
    /// post was written.
    private static let writtenOn = """
        SELECT lower(substr(h, 1, instr(h || '/', '/') - 1)) AS home, COUNT(*)
        FROM (SELECT substr(p.postID, instr(p.postID, '://') + 3) AS h
              FROM countedPost c JOIN post p ON p.id = c.postRef
              WHERE c.termID = ? AND p.created >= ? AND p.network = \(Network.mastodon.code) AND p.postID LIKE 'http%')
        GROUP BY home
        """
    private static let seenOn = """
        SELECT s.server, COUNT(*) FROM countedPost c JOIN post p ON p.id = c.postRef
        JOIN postServer s ON s.network = p.network AND s.postID = p.postID
        WHERE c.termID = ? AND p.created >= ? GROUP BY s.server
        """

    private static func servers(
        _ sql: String, _ arguments: StatementArguments, _ db: Database
    ) throws -> [(server: String, posts: Int)] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in (row[0], row[1]) }
    }

    func origins(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> TermOrigins? {
        let since = window.earliestCreated(at: now)
        return try await writer.read { db -> TermOrigins? in
            guard let (termID, shown) = try Self.recent(term, db) else { return nil }
            let counts = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.network, COUNT(*) FROM countedPost c JOIN post p ON p.id = c.postRef
                        WHERE c.termID = ? AND p.created >= ? GROUP BY p.network
                        """), arguments: [termID, since]
            ).compactMap { row in Network(code: row[0]).map { (network: $0, posts: row[1] as Int) } }
            let arguments: StatementArguments = [termID, since]
            return TermOrigins(
                term: shown, window: window, counts: counts,
                writtenOn: try Self.servers(Self.writtenOn, arguments, db),
                seenOn: try Self.servers(Self.seenOn, arguments, db))
        }
    }
}
