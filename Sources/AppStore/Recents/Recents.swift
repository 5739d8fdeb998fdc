import Posts

/// The most recent search terms (at most 100, newest first, unique case-insensitively, the newest spelling kept).
/// A term that leaves takes its popularity counts with it, and posts no remaining term counted are deleted.
public struct Recents: Sendable {
    public static let limit = 100
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Newest first.
    public func terms() async throws -> [String] {
        try await database.store.recentTerms()
    }

    /// Removes a term (matched case-insensitively); false if it was not there.
    @discardableResult
    public func delete(_ term: String) async throws -> Bool {
        try await database.store.deleteRecent(SearchTermKey(term))
    }
}
