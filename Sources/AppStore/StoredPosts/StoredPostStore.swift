import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts searches fetched, as the store keeps them for pages that show a post again (Mentions, the Images grid).
protocol StoredPostStore: Sendable {
    func storedPost(_ key: PostKey) async throws -> Post?
    /// The posts counted under the term from `newest` down to `oldest` (milliseconds since 1970), newest first.
    func storedPosts(_ term: SearchTermKey, newest: Int64, oldest: Int64) async throws -> [Post]
    /// By network then id (for tests and diagnostics).
    func storedPostIDs() async throws -> [String]
}

/// A post with what a store writes of it (see `PreparedPage`). A class: the writer filters and numbers a page's
/// posts, and every copy of a struct retained each field of the post (1.5% of a server's samples).
final class StorablePost: Sendable {
    let post: Post
    /// As the store keeps it: what the counts are made from, so that what a removal takes back is what was added.
    let kept: Post
    let created: Int64

    /// The kept form as the store writes it, made where it is written: SQLite writes only the posts it does not hold
    /// yet — under a different query each request, nearly every post of a page is held already, and making every
    /// post's JSON was a twentieth of the Search page's cost.
    var json: String { kept.storedJSON }

    /// A post whose author has not opted in to search is kept as its key, time and what it named only
    /// (`Post.withheld`): counted once, like any other, and nothing of it to show or export — unless `whole`, which
    /// `ConsentRules.keepsWhole` says while the rule is off.
    init(_ post: Post, whole: Bool) {
        let kept = whole ? post : post.withheld
        (self.post, self.kept, created) = (post, kept, post.created.millisecondsSince1970)
    }

    /// A post as a store keeps it (`Post.storedJSON`), read by `Post(json:)`: twice as fast as `JSONDecoder`, and
    /// a dataset reads every post of a term.
    static func decode(_ json: String) throws -> Post {
        try Post(jsonText: json)
    }
}
