import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's co-mention network as the store reads it from the counted pairs.
protocol NetworkStore: Sendable {
    /// The term's co-mention network; nil when the term is not in Recents.
    func network(_ term: SearchTermKey, _ options: NetworkOptions, at now: Date) async throws -> MentionNetwork?
}
