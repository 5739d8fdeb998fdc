import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The popularity tables of the terms in Recents, once or live.
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

    /// The table and its sparklines now, read together.
    public func overview(for term: String, window: TimeWindow = .all) async throws -> PopularityOverview {
        try await database.store.overview(SearchTermKey(term), window, at: Date())
    }

    /// The table now, then again whenever it changes — whoever writes it, this process or another one on the same
    /// database — until the consumer stops iterating.
    public func updates(
        for term: String, window: TimeWindow = .all
    ) throws -> AsyncThrowingStream<PopularityTable, any Error> {
        try changes(of: term) { store, term in try await store.popularity(term, window, at: Date()) }
    }

    /// What a Popularity page shows, read together: the overview and how the term is tracked.
    public func page(for term: String, window: TimeWindow = .all) async throws -> PopularityPage {
        try await Self.page(SearchTermKey(term), window, in: database.store)
    }

    /// The same, now and whenever either part changes (the page's live rows and tracking line).
    public func pageUpdates(
        for term: String, window: TimeWindow = .all
    ) throws -> AsyncThrowingStream<PopularityPage, any Error> {
        try changes(of: term) { store, term in try await Self.page(term, window, in: store) }
    }

    /// The term's co-mention network as asked for, at `now`; nil when the term is not in Recents.
    public func network(
        for term: String, _ options: NetworkOptions = NetworkOptions(), now: Date = Date()
    ) async throws -> MentionNetwork? {
        try await database.store.network(SearchTermKey(term), options, at: now)
    }

    private static func page(
        _ term: SearchTermKey, _ window: TimeWindow, in store: any Store
    ) async throws -> PopularityPage {
        PopularityPage(
            overview: try await store.overview(term, window, at: Date()),
            tracked: try await store.trackedTerms(term.key).first)
    }

    private func changes<Value: Equatable & Sendable>(
        of term: String, read: @escaping @Sendable (any Store, SearchTermKey) async throws -> Value
    ) throws -> AsyncThrowingStream<Value, any Error> {
        let term = try SearchTermKey(term)
        let store = database.store
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    var last: Value?
                    for await _ in store.changes(of: term.key) {
                        let value = try await read(store, term)
                        if value != last { continuation.yield(value) }
                        last = value
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A Popularity page's data: the overview, and the term's tracking (nil when it is not tracked).
public struct PopularityPage: Sendable, Hashable {
    public let overview: PopularityOverview
    public let tracked: TrackedTerm?
}

/// A term's popularity table with every row's sparkline, over the same buckets.
public struct PopularityOverview: Sendable, Hashable {
    public let table: PopularityTable
    public let sparklines: Sparklines
}
