import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a search's recording stores: the term's row in Recents with its session's follow-on requests, and the
/// page's posts counted under it, exactly once.
protocol SessionStore: Sendable {
    /// The term's row in Recents (first or not in the holder's) and which of `keys` it counted already; nil when no
    /// one holds it.
    func recordedTerm(_ key: String, of holder: Holder, counting keys: Set<PostKey>) async throws -> RecordedTerm?
    /// Moves the term to the top of the holder's Recents with the page's follow-on requests and counts the page's
    /// posts, in one transaction — unless that would change nothing: then nothing is written and the term is returned
    /// settled (with the generation read before it, when the store has one). A term pushed out of the holder's Recents
    /// that no one else holds goes with its counts; the posts no other term counted go in a later batch
    /// (`OrphanPosts`, `PostgresOrphans`).
    func record(_ term: SearchTermKey, of holder: Holder, _ page: PreparedPage) async throws -> SettledTerm?
    /// Counts a feed poll's posts under the term if it is still in Recents, without moving it.
    func countPoll(_ term: SearchTermKey, _ page: PreparedPage) async throws
    /// The term's session's follow-on requests; nil for a term without one.
    func cursors(of key: String) async throws -> SessionCursors?
}

/// A term that a search left unchanged, with the generation it was read at.
struct SettledTerm: Sendable {
    let term: RecordedTerm
    let generation: StoreGeneration
}

/// A term's row in Recents as the store holds it, and which posts of a page are already counted under it.
struct RecordedTerm: Sendable {
    let shown: String
    let isFirst: Bool
    let cursors: SessionCursors?
    let counted: Set<PostKey>

    /// Recording `term` with the page's cursors and counting its posts would leave the store as it is.
    func isUnchanged(by term: SearchTermKey, _ found: FoundPage) -> Bool {
        isFirst && shown == term.shown && cursors == found.cursors(saved: cursors) && found.keys.isSubset(of: counted)
    }
}
