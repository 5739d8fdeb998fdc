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

extension WindowHours {
    /// The window's start as a post's `created` is kept: milliseconds since 1970.
    var firstMillisecond: Int64 { Int64(first) * 3_600_000 }
}
