import GRDB
import Posts
import Twitter

/// The popularity tables of the terms in Recents, once or live.
public struct Popularity: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The table for `term` now; empty sections if the term is not in Recents.
    public func table(for term: String) async throws -> PopularityTable {
        let term = try SearchTermKey(term)
        return try await database.writer.read { db in try Self.fetch(term, db) }
    }

    /// The table now, then again whenever it changes — whoever writes it, this process or another one on the same
    /// database file — until the consumer stops iterating.
    public func updates(for term: String) throws -> AsyncThrowingStream<PopularityTable, any Error> {
        let term = try SearchTermKey(term)
        let database = self.database
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    var last: PopularityTable?
                    for await _ in database.changes.subscribe() {
                        let table = try await database.writer.read { db in try Self.fetch(term, db) }
                        if table != last { continuation.yield(table) }
                        last = table
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The rows are one indexed query: the term's mentions counted more than once, most first, ties alphabetical
    /// (the term's newest spelling is a primary-key look-up beside it).
    static func fetch(_ term: SearchTermKey, _ db: Database) throws -> PopularityTable {
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.kind, m.shown, c.count FROM recent r
            JOIN mentionCount c ON c.termID = r.id AND c.count > 1
            JOIN mention m ON m.id = c.mentionID
            WHERE r.key = ?
            ORDER BY c.count DESC, m.key
            """, arguments: [term.key])
        let shown = try String.fetchOne(db, sql: "SELECT term FROM recent WHERE key = ?", arguments: [term.key]) ?? term.shown
        let sections = MentionSection.Kind.allCases.map { kind in
            MentionSection(kind: kind, rows: rows.filter { MentionSection.Kind(code: $0[0]) == kind }.map { PopularMention(mention: $0[1], count: $0[2]) })
        }
        return PopularityTable(term: shown, sections: sections)
    }
}
