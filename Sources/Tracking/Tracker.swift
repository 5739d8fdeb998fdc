import AppStore
import HTTPExchange
import Logging
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Collects the tracked terms on their schedule while it runs — inside `serve`, or `collect` in the foreground: for
/// each term that is due, the *newer* walk a search makes on each of its sources, counted once per post, within each
/// network's rate limit. Several servers on one PostgreSQL share the work: a term due is claimed by one of them for a
/// while (a lease), and any of them takes it over when that one stops.
public struct Tracker: Sendable {
    /// How the tracker paces itself; tests shorten the pauses.
    public struct Options: Sendable {
        /// How often the store is asked for terms that are due.
        public var tick: Duration = .seconds(1)
        /// Terms fetched at once.
        public var concurrency = 4
        /// Posts per page.
        public var pageSize = SearchRequest.maximumCount
        /// The most newer pages one run follows for a source; what is left comes on the next run, from where the
        /// walk stopped.
        public var pagesPerRun = 10
        /// The pause after a source's first failure; it doubles with each one after, up to `longestPause`.
        public var firstPause: Duration = .seconds(15)
        public var longestPause: Duration = .seconds(15 * 60)
        /// Hears each run as it starts, with the time it started: how late it is against its due time.
        public var onRun: (@Sendable (_ term: TrackedTerm, _ started: Date) -> Void)?

        public init() {}
    }

    let terms: TrackedTerms
    let sources: SourceSet
    let options: Options
    let logger: Logger
    /// `collect TERM…`: only these terms; nil for every tracked one.
    let only: [String]?

    /// `sources`: the sources the server offers, the same ones people's searches use (so they share each network's
    /// rate-limit budget).
    public init(
        terms: TrackedTerms, sources: SourceSet, options: Options = Options(), only: [String]? = nil, logger: Logger
    ) {
        (self.terms, self.sources, self.options, self.only, self.logger) = (terms, sources, options, only, logger)
    }

    /// Collects until cancelled. A store that does not answer is asked again after a growing pause.
    public func run() async throws {
        var outage = Backoff(first: options.tick, most: .seconds(30))
        while true {
            try Task.checkCancellation()
            do {
                let claimed = try await claim()
                outage.reset()
                if claimed.isEmpty { try await Task.sleep(for: options.tick) } else { await collect(claimed) }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.warning("The tracker could not read the tracked terms: \(error)")
                try await Task.sleep(for: outage.next())
            }
        }
    }

    /// The terms due now, taken for as long as a run may last.
    private func claim() async throws -> [TrackedTerm] {
        try await terms.claimDue(lease: .seconds(120), limit: options.concurrency * 4, only: only)
    }

    /// Runs the claimed terms, `concurrency` at a time.
    private func collect(_ claimed: [TrackedTerm]) async {
        await withTaskGroup(of: Void.self) { group in
            for (index, term) in claimed.enumerated() {
                if index >= options.concurrency { await group.next() }
                group.addTask { await self.collect(term) }
            }
        }
    }

    /// One run of a term: each of its sources walked in turn, then the term is due again at its next time.
    func collect(_ term: TrackedTerm) async {
        options.onRun?(term, Date())
        var backfill = term.plan.backfill
        var stillTracked = await noteMissingSources(of: term)
        for named in chosenSources(of: term) where stillTracked {
            let run = SourceRun(term: term, named: named, terms: terms, options: options)
            do {
                stillTracked = try await run.collect(backfill: &backfill)
            } catch {
                logger.warning("Tracking “\(term.term)” from \(named.name) failed: \(error)")
            }
        }
        guard stillTracked else { return }
        do {
            let due = Schedule.next(after: Date(), every: term.plan.every, key: term.key)
            try await terms.finish(term, due: due, backfill: backfill)
        } catch {
            // The lease runs out and the term is claimed again, from where each source stood.
            logger.warning("Could not schedule “\(term.term)” again: \(error)")
        }
    }

    /// A source the plan names that this server does not offer (not configured here) says so once, on the page and in
    /// `tracking`; false once the term is no longer tracked.
    private func noteMissingSources(of term: TrackedTerm) async -> Bool {
        let missing = (term.plan.sources ?? []).filter { !sources.names.contains($0) }
        for name in missing {
            var state = term.source(name)
            let sentence = "“\(name)” is not a source this server offers (not configured here): nothing comes from it."
            guard state.error != sentence else { continue }
            state.error = sentence
            do {
                guard try await terms.collect(term, page: nil, at: .newest, source: state) else { return false }
            } catch {
                logger.warning("Could not note a missing source of “\(term.term)”: \(error)")
            }
        }
        return true
    }

    /// The term's sources among those offered, in the server's order; every one offered when the plan names none.
    private func chosenSources(of term: TrackedTerm) -> [NamedSource] {
        guard let names = term.plan.sources else { return sources.sources }
        return sources.choosing(names).sources
    }
}
