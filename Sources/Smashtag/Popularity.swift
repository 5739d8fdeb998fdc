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

    /// The table and its sparklines now, read together.
    public func overview(for term: String) async throws -> PopularityOverview {
        let term = try SearchTermKey(term)
        return try await database.writer.read { db in try Self.overview(term, db) }
    }

    /// The table now, then again whenever it changes — whoever writes it, this process or another one on the same
    /// database file — until the consumer stops iterating.
    public func updates(for term: String) throws -> AsyncThrowingStream<PopularityTable, any Error> {
        try changes(of: term, read: Self.fetch)
    }

    /// The table and its sparklines, now and whenever they change (the Popularity page's live rows).
    public func overviewUpdates(for term: String) throws -> AsyncThrowingStream<PopularityOverview, any Error> {
        try changes(of: term, read: Self.overview)
    }

    private func changes<Value: Equatable & Sendable>(
        of term: String, read: @escaping @Sendable (SearchTermKey, Database) throws -> Value
    ) throws -> AsyncThrowingStream<Value, any Error> {
        let term = try SearchTermKey(term)
        let database = self.database
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    var last: Value?
                    for await _ in database.changes.subscribe() {
                        let value = try await database.writer.read { db in try read(term, db) }
                        if value != last { continuation.yield(value) }
                        last = value
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func overview(_ term: SearchTermKey, _ db: Database) throws -> PopularityOverview {
        PopularityOverview(table: try fetch(term, db), sparklines: try Trends.sparklines(term, buckets: Sparklines.length, db))
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

/// A term's popularity table with every row's sparkline, over the same buckets.
public struct PopularityOverview: Sendable, Hashable {
    public let table: PopularityTable
    public let sparklines: Sparklines
}
