import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts searches fetched, kept while a term in Recents counts them: what a Mentions page, the Images grid and
/// a one-post list show again. A post whose author has not opted in to search is kept withheld (`Post.withheld`) and
/// is not among them.
extension AppDatabase {
    /// A post fetched by some search and still counted under a term in Recents.
    public func storedPost(_ key: PostKey) async throws -> Post? {
        try await store.storedPost(key).flatMap { $0.notIndexable ? nil : $0 }
    }

    /// The posts fetched for `term` from the time of `newest` down to that of `oldest`, newest first: what a page of
    /// results holds.
    public func storedPosts(term: String, newest: Date, oldest: Date) async throws -> [Post] {
        try await store.storedPosts(
            SearchTermKey(term), newest: newest.millisecondsSince1970, oldest: oldest.millisecondsSince1970
        ).filter { !$0.notIndexable }
    }

    /// The stored posts' ids, by network then id (for tests and diagnostics).
    public func storedPostIDs() async throws -> [String] {
        try await store.storedPostIDs()
    }
}
