import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's counts as the store reads them: the popularity table in a window, with its sparklines, and a mention's
/// trend.
protocol PopularityStore: Sendable {
    /// The term's mentions counted more than once in the window ending at `now`, with each row's partners.
    func popularity(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityTable
    /// The table and its sparklines, read together.
    func overview(_ term: SearchTermKey, _ window: TimeWindow, at now: Date) async throws -> PopularityOverview
    func series(_ term: SearchTermKey, mention: String, bucket: TrendBucket?) async throws -> TrendSeries
    func sparklines(_ term: SearchTermKey, buckets: Int) async throws -> Sparklines
    /// Whether counts are kept for the term: it is in someone's Recents, or tracked.
    func isCounted(_ term: SearchTermKey) async throws -> Bool
}
