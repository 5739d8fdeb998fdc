import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's networks as the store reads them from the counted pairs and interactions.
protocol NetworkStore: Sendable {
    /// The term's network of the kind asked for; nil when the term is not in Recents.
    func network(_ term: SearchTermKey, _ options: NetworkOptions, at now: Date) async throws -> MentionNetwork?
    /// The term's posts replied to and quoted most and who starts conversations, `limit` of each, without the posts'
    /// text; nil when the term is not in Recents.
    func conversations(_ term: SearchTermKey, limit: Int) async throws -> TermConversations?
}
