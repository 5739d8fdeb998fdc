import Posts

/// The popularity tables of the terms in Recents, once or live.
public struct Popularity: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The table for `term` now; empty sections if the term is not in Recents.
    public func table(for term: String) async throws -> PopularityTable {
        try await database.store.popularity(SearchTermKey(term))
    }

    /// The table and its sparklines now, read together.
    public func overview(for term: String) async throws -> PopularityOverview {
        try await database.store.overview(SearchTermKey(term))
    }

    /// The table now, then again whenever it changes — whoever writes it, this process or another one on the same
    /// database — until the consumer stops iterating.
    public func updates(for term: String) throws -> AsyncThrowingStream<PopularityTable, any Error> {
        try changes(of: term) { store, term in try await store.popularity(term) }
    }

    /// The table and its sparklines, now and whenever they change (the Popularity page's live rows).
    public func overviewUpdates(for term: String) throws -> AsyncThrowingStream<PopularityOverview, any Error> {
        try changes(of: term) { store, term in try await store.overview(term) }
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

/// A term's popularity table with every row's sparkline, over the same buckets.
public struct PopularityOverview: Sendable, Hashable {
    public let table: PopularityTable
    public let sparklines: Sparklines
}
