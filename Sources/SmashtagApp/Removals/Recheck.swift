import AppStore
import Corpus
import HTTPExchange
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Deletions honoured: the posts the store keeps, then the corpus's (imported), asked again of their networks
/// (oldest stored first, skipping those checked within the interval), and those a network says are gone removed from
/// every term's counts, trends and networks and from the corpus. A network that cannot answer leaves its posts as they
/// were and is named with why; one that rate-limits is waited for and asked again from where it stopped. A live
/// index's own network is not asked about its corpus posts: Jetstream tells it of deletions as they happen.
public struct Recheck: Sendable {
    /// One network's recheck.
    public struct Outcome: Sendable, Equatable {
        public let title: String
        public var checked = 0
        public var gone = 0
        /// Why it stopped early: the network's own sentence; the posts not asked about stay as they were.
        public var stopped: String?
    }

    /// Posts read from the store at a time, then asked about in the network's batches.
    static let candidates = 500

    let database: AppDatabase
    let corpus: (any PostCorpus)?
    let sources: [NamedSource]
    /// Posts a recheck found published after this are not asked about again.
    let checkedBefore: Date
    /// Told of waits and progress, in sentences.
    let report: @Sendable (String) -> Void

    public init(
        database: AppDatabase, corpus: (any PostCorpus)?, sources: [NamedSource], checkedBefore: Date,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        (self.database, self.corpus, self.sources, self.checkedBefore) = (database, corpus, sources, checkedBefore)
        self.report = report
    }

    /// The sources that can look posts up, without X when the corpus holds the demo (its made-up posts X never had:
    /// X would call them all deleted); and, when X was left out, why.
    public static func lookups(
        in sources: [NamedSource], corpus: (any PostCorpus)?
    ) async throws -> (sources: [NamedSource], leftOut: String?) {
        let lookups = sources.filter { $0.source is any PostLookup }
        guard let corpus, try await corpus.info(CorpusNote.demoSeed) != nil,
            let x = lookups.first(where: { ($0.source as? any PostLookup)?.network == .twitter })
        else { return (lookups, nil) }
        return (
            lookups.filter { $0.name != x.name },
            "\(x.title) is not asked: the corpus is the demo's, whose posts X never had."
        )
    }

    /// Each source that can look posts up, rechecked in turn.
    public func run() async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for named in sources {
            guard let lookup = named.source as? any PostLookup else { continue }
            outcomes.append(try await recheck(lookup, title: named.title))
        }
        return outcomes
    }

    private func recheck(_ lookup: any PostLookup, title: String) async throws -> Outcome {
        var outcome = Outcome(title: title)
        var after: Int64 = 0
        while case let page = try await database.recheckCandidates(
            lookup.network, after: after, checkedBefore: checkedBefore.millisecondsSince1970, limit: Self.candidates),
            let last = page.last
        {
            for batch in page.map(\.key).chunks(of: lookup.lookupBatch) {
                guard try await settle(batch, lookup, title, &outcome) else { return outcome }
            }
            after = last.reference
        }
        try await recheckCorpus(lookup, title: title, &outcome)
        return outcome
    }

    /// The corpus's posts of the lookup's network, walked the same way: posts imported that no search kept.
    private func recheckCorpus(_ lookup: any PostLookup, title: String, _ outcome: inout Outcome) async throws {
        guard let corpus else { return }
        if lookup.network == .bluesky, try await corpus.info(CorpusNote.liveIndex) != nil { return }
        var after: Int64 = 0
        while case let page = try await corpus.recheckCandidates(
            lookup.network, after: after, checkedBefore: checkedBefore.millisecondsSince1970, limit: Self.candidates),
            let last = page.last
        {
            for batch in page.map(\.post).chunks(of: lookup.lookupBatch) {
                guard try await settle(batch, lookup, title, &outcome) else { return }
            }
            after = last.key
        }
    }

    /// Asks about one batch — not about posts the corpus says were checked within the interval (a post both kept
    /// and in the corpus is asked about once) — and settles it: the gone removed from the store and the corpus, the
    /// others marked checked in both. False when the network stopped answering, said in the outcome.
    private func settle(
        _ batch: [PostKey], _ lookup: any PostLookup, _ title: String, _ outcome: inout Outcome
    ) async throws -> Bool {
        let known = try await corpus?.checked(batch, since: checkedBefore.millisecondsSince1970) ?? []
        let asking = batch.filter { !known.contains($0) }
        let gone: Set<String>
        do {
            gone = asking.isEmpty ? [] : try await ask(lookup, asking.map(\.id), title: title)
        } catch let error as any ExplainedError where !(error is any LocalOutage) {
            outcome.stopped = error.description
            return false
        }
        let goneKeys = asking.filter { gone.contains($0.id) }
        if !goneKeys.isEmpty {
            _ = try await database.removePosts(goneKeys)
            _ = try await corpus?.delete(ids: goneKeys.map(\.id))
        }
        let published = batch.filter { !gone.contains($0.id) }
        let now = Date().millisecondsSince1970
        try await database.markChecked(published, at: now)
        try await corpus?.markChecked(published, at: now)
        (outcome.gone, outcome.checked) = (outcome.gone + goneKeys.count, outcome.checked + asking.count)
        return true
    }

    /// The network's answer for the batch, waiting while its rate limit is spent (the budget says until when).
    private func ask(_ lookup: any PostLookup, _ ids: [String], title: String) async throws -> Set<String> {
        while true {
            if let resumes = lookup.budget?.backgroundResumes(after: Date()) {
                report("\(title): waiting for its rate limit until \(RetryAdvice.time(resumes)), then going on.")
                try await Task.sleep(for: .seconds(max(0.05, resumes.timeIntervalSinceNow)))
            }
            do {
                return try await lookup.gone(among: ids)
            } catch let refusal as any RateLimitRefusal where refusal.isRateLimited {
                guard lookup.budget?.backgroundResumes(after: Date()) != nil else { throw refusal }
            }
        }
    }
}
