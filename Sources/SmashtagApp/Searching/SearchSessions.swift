import AppStore
import Posts

/// Searches as the app runs them, from the web app and the command line alike: a page asked of the sources, then
/// recorded in Recents and counted for popularity (`RecordedSearches`); *newer* continues from the newest post each
/// source has shown for the term and *older* from the oldest, so no post is returned twice.
public struct SearchSessions: Sendable {
    private let records: RecordedSearches

    public init(database: AppDatabase) {
        records = RecordedSearches(database: database)
    }

    /// Fetches the page at `position` for `term` from `sources` (a web page knows which posts it shows; the CLI
    /// asks `newerPosition`/`olderPosition` where the session stands), then records it in the holder's Recents and
    /// counts it. Throws only when every source failed. `recording: false` (a request another site's page made a
    /// browser send, a visitor's) answers the page and writes nothing.
    public func fetch(
        _ term: String, from sources: SourceSet, at position: MergedPosition, count: Int = 20,
        for holder: Holder = .owner, recording: Bool = true
    ) async throws -> MergedPage {
        let term = try SearchTermKey(term)
        let page = try await sources.search(MergedRequest(query: term.shown, count: count, position: position))
        if recording { try await records.record(term, for: holder, page, at: position) }
        return page
    }

    /// A feed reader's poll: the newest posts, counted under the term while it is in Recents, never adding or moving
    /// it (`RecordedSearches.countPoll`); with `recording: false`, nothing is written.
    public func poll(
        _ term: String, from sources: SourceSet, count: Int = 20, recording: Bool = true
    ) async throws -> MergedPage {
        let term = try SearchTermKey(term)
        let page = try await sources.search(MergedRequest(query: term.shown, count: count, position: .newest))
        if recording { try await records.countPoll(term, page) }
        return page
    }

    /// Where the term's session goes on to newer posts from each of `sources`.
    public func newerPosition(for term: String, from sources: SourceSet) async throws -> MergedPosition {
        try await records.newerPosition(for: SearchTermKey(term), from: sources.names)
    }

    /// Where the term's session goes on to older posts from each of `sources`; nil when every source has reached its
    /// oldest.
    public func olderPosition(for term: String, from sources: SourceSet) async throws -> MergedPosition? {
        try await records.olderPosition(for: SearchTermKey(term), from: sources.names)
    }
}
