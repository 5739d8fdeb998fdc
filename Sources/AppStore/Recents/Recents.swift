import Posts

/// A holder's most recent search terms (at most 100, newest first, unique case-insensitively, the newest spelling
/// kept). Each person has their own; a term's popularity counts are shared, and go, with the posts no remaining term
/// counted, only when no one's Recents and no tracking holds it.
public struct Recents: Sendable {
    public static let limit = 100
    let database: AppDatabase
    let holder: Holder

    public init(database: AppDatabase, holder: Holder = .owner) {
        self.database = database
        self.holder = holder
    }

    /// Newest first.
    public func terms() async throws -> [String] {
        try await database.store.recentTerms(of: holder)
    }

    /// Removes a term (matched case-insensitively) from the holder's Recents, with its tracking if they tracked it;
    /// false if it was not there.
    @discardableResult
    public func delete(_ term: String) async throws -> Bool {
        try await database.store.deleteRecent(SearchTermKey(term), of: holder)
    }
}
