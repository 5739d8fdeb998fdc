import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The popularity tables and co-mention networks of the terms in Recents, as the store reads them (the live ones are
/// the app's: `LivePopularity`).
public struct Popularity: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The table for `term` in the window ending `now`; empty sections if the term is not in Recents.
    public func table(
        for term: String, window: TimeWindow = .all, now: Date = Date()
    ) async throws
        -> PopularityTable
    {
        try await database.store.popularity(SearchTermKey(term), window, at: now)
    }

    /// Whether counts are kept for `term` (it is in someone's Recents, or tracked); its table is empty otherwise, and
    /// the pages, the API and the commands say so rather than show an empty one.
    public func isCounted(_ term: String) async throws -> Bool {
        try await database.store.isCounted(SearchTermKey(term))
    }

    /// The sentence for a term that is not counted.
    public static func notInRecents(_ term: String) -> String {
        "“\(term)” is not in Recents: popularity is counted from the posts fetched for a search."
    }

    /// The table and its sparklines now, read together.
    public func overview(for term: String, window: TimeWindow = .all) async throws -> PopularityOverview {
        try await database.store.overview(SearchTermKey(term), window, at: Date())
    }

    /// The term's co-mention network as asked for, at `now`; nil when the term is not in Recents.
    public func network(
        for term: String, _ options: NetworkOptions = NetworkOptions(), now: Date = Date()
    ) async throws -> MentionNetwork? {
        try await database.store.network(SearchTermKey(term), options, at: now)
    }

    /// The term's posts replied to and quoted most and who starts conversations; nil when the term is not in Recents.
    /// Without the posts' text: whoever may see a post sees it on its thread page.
    public func conversations(
        for term: String, limit: Int = TermConversations.limit
    ) async throws -> TermConversations? {
        try await database.store.conversations(SearchTermKey(term), limit: limit)
    }

}

/// A term's popularity table with every row's sparkline, over the same buckets.
public struct PopularityOverview: Sendable, Hashable {
    public let table: PopularityTable
    public let sparklines: Sparklines
}
