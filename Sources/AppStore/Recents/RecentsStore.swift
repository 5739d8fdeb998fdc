import Posts

/// Recents as the store keeps them: at most a hundred terms, newest first, tracked ones never pushed out.
protocol RecentsStore: Sendable {
    /// Newest first.
    func recentTerms() async throws -> [String]
    /// Removes the term with its counts, its tracking and the posts no other term counted; false if it was not there.
    func deleteRecent(_ term: SearchTermKey) async throws -> Bool
}
