import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's counted posts by the network each came from.
protocol OriginsStore: Sendable {
    /// How many of the term's counted posts each network gave, in the window at `now`; nil when the term is not in
    /// Recents.
    func origins(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> TermOrigins?
}
