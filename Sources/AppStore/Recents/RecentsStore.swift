import Posts

/// Recents as the store keeps them: each holder's last hundred terms, newest first, tracked ones never pushed out.
protocol RecentsStore: Sendable {
    /// The holder's terms, newest first.
    func recentTerms(of holder: Holder) async throws -> [String]
    /// Removes the term from the holder's Recents, and its tracking when the holder tracked it; the term goes with its
    /// counts and the posts no other term counted once no one holds it. False if the holder did not have it.
    func deleteRecent(_ term: SearchTermKey, of holder: Holder) async throws -> Bool
}
