import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts searches fetched, kept while a term in Recents counts them: what a Mentions page, the Images grid and
/// a one-post list show again. A post whose author has not opted in to search is kept withheld (`Post.withheld`) and
/// is not among them; one kept whole while that consent rule was off is, only while it still is.
extension AppDatabase {
    /// A post fetched by some search and still counted under a term in Recents.
    public func storedPost(_ key: PostKey) async throws -> Post? {
        let rules = try await consentRules()
        return try await store.storedPost(key).flatMap { rules.shows(kept: $0) ? $0 : nil }
    }

    /// The posts fetched for `term` from the time of `newest` down to that of `oldest`, newest first: what a page of
    /// results holds.
    public func storedPosts(term: String, newest: Date, oldest: Date) async throws -> [Post] {
        let rules = try await consentRules()
        return try await store.storedPosts(
            SearchTermKey(term), newest: newest.millisecondsSince1970, oldest: oldest.millisecondsSince1970
        ).filter(rules.shows(kept:))
    }

    /// The stored posts' ids, by network then id (for tests and diagnostics).
    public func storedPostIDs() async throws -> [String] {
        try await store.storedPostIDs()
    }
}
