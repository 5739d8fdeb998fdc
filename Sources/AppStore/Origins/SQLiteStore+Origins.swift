import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's counted posts by network: one grouped read of the term's `countedPost` rows and their posts.
extension SQLiteStore: OriginsStore {
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
            return TermOrigins(term: shown, window: window, counts: counts)
        }
    }
}
