import AppStore
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Popularity as live pages show it: a term's table, or its whole Popularity page, now and again whenever it changes
/// — whoever writes it, this process, another one on the same file, or another server on the same database.
public struct LivePopularity: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The table now, then again whenever it changes, until the consumer stops iterating.
    public func updates(
        for term: String, window: TimeWindow = .all
    ) throws -> AsyncThrowingStream<PopularityTable, any Error> {
        try changes(of: term) { database, term in
            try await Popularity(database: database).table(for: term, window: window)
        }
    }

    /// What a Popularity page shows, read together: the overview, where its posts came from, how the term is tracked
    /// and its conversations.
    public func page(for term: String, window: TimeWindow = .all) async throws -> PopularityPage {
        try await Self.page(term, window, in: database)
    }

    /// The same, now and whenever either part changes (the page's live rows and tracking line).
    public func pageUpdates(
        for term: String, window: TimeWindow = .all
    ) throws -> AsyncThrowingStream<PopularityPage, any Error> {
        try changes(of: term) { database, term in try await Self.page(term, window, in: database) }
    }

    private static func page(
        _ term: String, _ window: TimeWindow, in database: AppDatabase
    ) async throws -> PopularityPage {
        PopularityPage(
            overview: try await Popularity(database: database).overview(for: term, window: window),
            origins: try await Origins(database: database).of(term, window: window),
            tracked: try await TrackedTerms(database: database).term(term),
            conversations: try await Popularity(database: database).conversations(for: term))
    }

    /// `read` once the store signals a change of the term (and once at first), each value passed on only when it
    /// differs from the last; the newest waits while the consumer is busy.
    private func changes<Value: Equatable & Sendable>(
        of term: String, read: @escaping @Sendable (AppDatabase, String) async throws -> Value
    ) throws -> AsyncThrowingStream<Value, any Error> {
        let key = try SearchTermKey(term)
        let database = database
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    var last: Value?
                    for await _ in database.changes(of: key) {
                        let value = try await read(database, term)
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

/// A Popularity page's data: the overview, where its posts came from (nil when the term is not in Recents), and the
/// term's tracking (nil when it is not tracked).
public struct PopularityPage: Sendable, Hashable {
    public let overview: PopularityOverview
    public let origins: TermOrigins?
    public let tracked: TrackedTerm?
    /// The posts replied to and quoted most, and who starts conversations (all time).
    public let conversations: TermConversations?
}
