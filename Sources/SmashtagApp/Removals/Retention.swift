import AppStore
import Corpus
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Posts kept no longer than the project may keep them (`serve --keep-days`, `smashtag corpus prune`): the kept posts
/// made before the keeping time are reduced to what keeps them counted — their key, time and what they named —, so
/// popularity, trends and networks stay as aggregates, or with `forgetCounts` removed with their counts; and the
/// corpus's posts made before it are deleted (not the demo's, which are no one's). A tracked term's own keeping time
/// (`track --keep`) reduces its older posts the same way, each once no other term keeps it.
public struct Retention: Sendable {
    /// What a run did.
    public struct Outcome: Sendable, Equatable {
        /// Kept posts reduced to their counts.
        public var reduced = 0
        /// Kept posts removed with their counts (`forgetCounts`).
        public var removed = 0
        /// Corpus posts deleted.
        public var corpus = 0
        /// Of `reduced`, those a tracked term's own keeping time reduced.
        public var byTrackedTerms = 0
        /// Posts taken out of a tracked term's counts by its own keeping time (`track --forget-counts`).
        public var forgottenByTrackedTerms = 0
    }

    /// Posts read from the store at a time.
    static let batch = 2_000

    let database: AppDatabase
    let corpus: (any PostCorpus)?
    /// The whole data's keeping time; nil: only tracked terms' own.
    let keepDays: Int?
    let forgetCounts: Bool

    public init(database: AppDatabase, corpus: (any PostCorpus)?, keepDays: Int?, forgetCounts: Bool) {
        (self.database, self.corpus, self.keepDays, self.forgetCounts) = (database, corpus, keepDays, forgetCounts)
    }

    public func run(at now: Date = Date()) async throws -> Outcome {
        var outcome = Outcome()
        if let keepDays { try await keepWholeData(keepDays, now, &outcome) }
        try await keepTrackedTerms(now, &outcome)
        outcome.reduced += outcome.byTrackedTerms
        return outcome
    }

    /// Each tracked term with a keeping time of its own: its posts past it that no other term keeps, reduced; or,
    /// when it forgets counts, every post of its past it taken out of its counts (and deleted if no term counts it).
    private func keepTrackedTerms(_ now: Date, _ outcome: inout Outcome) async throws {
        for term in try await TrackedTerms(database: database).all() {
            guard let days = term.plan.keepDays else { continue }
            let forgetting = term.plan.forgetsCounts
            let settled = try await walk { after in
                try await database.termRetentionCandidates(
                    term: term.term, keepDays: days, now: now, after: after, limit: Self.batch, forgetting: forgetting)
            } settling: { keys in
                forgetting
                    ? try await database.removePosts(keys, fromTerm: term.term).posts
                    : try await database.reducePosts(keys, at: now.millisecondsSince1970)
            }
            if forgetting { outcome.forgottenByTrackedTerms += settled } else { outcome.byTrackedTerms += settled }
        }
    }

    private func keepWholeData(_ keepDays: Int, _ now: Date, _ outcome: inout Outcome) async throws {
        let before = now.addingTimeInterval(-Double(keepDays) * 86_400)
        let settled = try await walk { after in
            try await database.retentionCandidates(
                createdBefore: before.millisecondsSince1970, after: after, limit: Self.batch, reducedToo: forgetCounts)
        } settling: { keys in
            forgetCounts
                ? try await database.removePosts(keys).posts
                : try await database.reducePosts(keys, at: now.millisecondsSince1970)
        }
        if forgetCounts { outcome.removed += settled } else { outcome.reduced += settled }
        outcome.corpus = try await pruneCorpus(before: before)
    }

    /// Each page of candidates after the last one's reference, settled in turn until none is left; how many the
    /// settling counted.
    private func walk(
        _ candidates: (_ after: Int64) async throws -> [KeptPost], settling: ([PostKey]) async throws -> Int
    ) async throws -> Int {
        var (after, settled): (Int64, Int) = (0, 0)
        while case let page = try await candidates(after), let last = page.last {
            settled += try await settling(page.map(\.key))
            after = last.reference
        }
        return settled
    }

    private func pruneCorpus(before date: Date) async throws -> Int {
        guard let corpus = corpus as? any LiveIndexCorpus, try await corpus.info(CorpusNote.demoSeed) == nil else {
            return 0
        }
        var deleted = 0
        for network in Network.allCases {
            while case let pruned = try await corpus.prune(network, before: date, limit: Self.batch), pruned > 0 {
                deleted += pruned
            }
        }
        return deleted
    }
}
