import AppStore
import HTTPExchange
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One run of a tracked term on one source: the newer walk from where the source stood (the newest page the first
/// time), page by page until it has caught up or the run's page limit is reached, then, while older pages are asked
/// for and the network's limit leaves room, one of them. Each page is counted and the source's place kept in one
/// transaction, so a kill between pages loses nothing and counts nothing twice.
struct SourceRun {
    let term: TrackedTerm
    let named: NamedSource
    let terms: TrackedTerms
    let options: Tracker.Options

    /// False once the term is no longer tracked (the page under way is counted, and the run ends).
    func collect(backfill: inout Int) async throws -> Bool {
        var state = term.source(named.name)
        if let waiting = waitingReason(state) {
            guard state.error != waiting.sentence || state.retryAt != waiting.until else { return true }
            state.error = waiting.sentence
            state.retryAt = waiting.until
            return try await terms.collect(term, page: nil, at: .newest, source: state)
        }
        guard try await walkNewer(&state) else { return false }
        guard backfill > 0, state.error == nil, hasRoomForBackfill else { return true }
        return try await walkOlder(&state, backfill: &backfill)
    }

    /// Newer pages until the source has caught up; false once the term is no longer tracked.
    private func walkNewer(_ state: inout TrackedSource) async throws -> Bool {
        for _ in 0..<options.pagesPerRun {
            let position: MergedPosition = state.newer.map { .newer([named.name: $0]) } ?? .newest
            guard let page = try await fetch(at: position, &state) else { return true }
            let first = state.newer == nil
            let cursor = page.cursors[named.name]
            state.newer = cursor?.newer.position ?? state.newer
            if first { state.older = cursor?.older?.position }
            guard try await terms.collect(term, page: page, at: position, source: state) else { return false }
            let caughtUp = first || page.posts.count < options.pageSize
            if caughtUp || waitingReason(state) != nil { return true }
        }
        return true
    }

    /// One older page, when one is left to walk; false once the term is no longer tracked.
    private func walkOlder(_ state: inout TrackedSource, backfill: inout Int) async throws -> Bool {
        guard let older = state.older else {
            backfill = 0
            return true
        }
        let position = MergedPosition.older([named.name: older])
        guard let page = try await fetch(at: position, &state) else { return true }
        state.older = page.cursors[named.name]?.older?.position
        backfill = state.older == nil ? 0 : backfill - 1
        return try await terms.collect(term, page: page, at: position, source: state)
    }

    /// The page at `position`; nil, with the failure kept in `state` and saved, when the source failed.
    private func fetch(at position: MergedPosition, _ state: inout TrackedSource) async throws -> MergedPage? {
        let request = MergedRequest(query: term.term, count: options.pageSize, position: position)
        do {
            let source = (named.source as? any BackgroundSource)?.forBackground ?? named.source
            let page = try await SourceSet([NamedSource(name: named.name, title: named.title, source: source)])
                .search(request)
            state.error = nil
            state.retryAt = nil
            state.failures = 0
            // What this page could not collect (a server of several that failed): said until a page has none.
            state.gap = page.problems.isEmpty ? nil : page.problems.joined(separator: " ")
            return page
        } catch let failed as SourcesFailed {
            // Stopping (Ctrl-C, a server shutting down) cancels the request under way: not the source's failure.
            try Task.checkCancellation()
            state.failures += 1
            state.error = failed.description
            state.retryAt = retryTime(afterFailures: state.failures)
            _ = try await terms.collect(term, page: nil, at: position, source: state)
            return nil
        }
    }

    /// A source waits after a failure (growing pauses, or a rate limit's reset), and while the network's budget is
    /// down to the fifth kept for people's searches; nil when it may be asked now.
    private func waitingReason(_ state: TrackedSource) -> (sentence: String, until: Date)? {
        let now = Date()
        if let retryAt = state.retryAt, now < retryAt, let error = state.error { return (error, retryAt) }
        guard let resumes = named.source.budget?.backgroundResumes(after: now) else { return nil }
        return (
            "\(named.title): waiting for its rate limit, kept for searches, until \(RetryAdvice.time(resumes)).",
            resumes
        )
    }

    /// Older pages are walked only while most of the window is left.
    private var hasRoomForBackfill: Bool {
        guard let window = named.source.budget?.window, Date() < window.reset else { return true }
        return window.remaining * 2 > window.limit
    }

    /// After `failures` failures in a row: a rate limit's reset when the network gave one (a 429), else the growing
    /// pause.
    private func retryTime(afterFailures failures: Int) -> Date {
        if let reset = named.source.budget?.backgroundResumes(after: Date()) { return reset }
        let doublings = min(failures - 1, 16)
        let pause = min(options.firstPause * (1 << doublings), options.longestPause)
        return Date().addingTimeInterval(pause.seconds)
    }
}
