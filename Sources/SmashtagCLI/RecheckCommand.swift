import AppStore
import ArgumentParser
import Corpus
import Foundation
import Logging
import Posts
import SmashtagApp
import Team

/// `smashtag corpus recheck`: the kept posts asked again of their networks, the deleted ones removed everywhere.
struct RecheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recheck",
        abstract: "Ask each network whether the posts kept are still published; remove those it deleted.",
        discussion: """
            Each configured network (or those --source names) is asked about the posts searches and tracking kept, \
            then about the corpus's (imported) posts, oldest stored first, each post once, in its batches (Mastodon \
            one status a request, Bluesky 25 a getPosts, X 100 a lookup) and within its rate limit (it waits for the \
            reset and goes on). A post its network says is gone (deleted, or its account deleted or suspended) \
            leaves every term's counts, trends and networks, and the corpus. A network that cannot answer leaves its \
            posts as they were. The demo corpus's made-up posts are not asked of X, nor a live index's of Bluesky \
            (Jetstream tells it of deletions).
            """
    )

    @Option(
        name: .customLong("older-than"),
        help: ArgumentHelp("Only posts not found published within this period (e.g. 7d, 12h).", valueName: "period"))
    var olderThan: String?

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard let olderThan else { return }
        do { _ = try Period.seconds(olderThan) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let seconds = olderThan.flatMap { try? Period.seconds($0) } ?? 0
        let directory = try DataDirectory(common.dataDirectory)
        let choice = try SourceChoice(common, directory: directory)
        let corpus = try await store.openCorpus(in: directory)
        let networks = choice.names.filter { $0 != .corpus }
        let (sources, leftOut) = try await Recheck.lookups(
            in: choice.catalog.open(networks, corpus: nil, logger: Logger(label: "smashtag")).sources, corpus: corpus)
        if let leftOut { StandardError.write("smashtag: " + leftOut) }
        guard !sources.isEmpty else {
            throw CommandFailure(
                """
                No configured network can recheck posts: set SMASHTAG_MASTODON_INSTANCE, Bluesky's handle and app \
                password, or an X bearer token.
                """)
        }
        let outcomes = try await store.withStore(in: directory) { database in
            let outcomes = try await CommandFailure.reporting {
                try await Recheck(
                    database: database, corpus: corpus, sources: sources,
                    checkedBefore: Date().addingTimeInterval(-Double(seconds)),
                    report: { StandardError.write("smashtag: " + $0) }
                ).run()
            }
            let gone = outcomes.reduce(0) { $0 + $1.gone }
            if gone > 0 {
                try await CommandLineAudit.record(
                    "recheck", "\(grouped(gone)) posts their networks deleted removed", database)
            }
            return outcomes
        }
        for outcome in outcomes { print(Self.line(outcome)) }
        if outcomes.contains(where: { $0.stopped != nil }) { throw ExitCode(1) }
    }

    static func line(_ outcome: Recheck.Outcome) -> String {
        let checked = "\(outcome.title): \(postCount(outcome.checked)) checked, \(grouped(outcome.gone)) deleted"
        guard let stopped = outcome.stopped else {
            return checked + (outcome.gone == 0 ? "." : " and removed from the counts, the networks and the corpus.")
        }
        return checked + "; then it stopped: \(stopped) The posts not checked were left as they were."
    }
}

/// `smashtag forget @handle`: a person's posts out of the counts, the networks and the corpus.
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove a person's posts from every count, network and the corpus.",
        discussion: """
            Every post by the handle that searches and tracking kept leaves the terms' counts, trends and networks \
            (the counts go down by exactly what each post added), and the corpus's posts by the handle are deleted. \
            The audit trail records that a person was forgotten, not whom. Posts kept without their author (their \
            author has not opted in to search) cannot be found by author, and keep counting.
            """
    )

    @Argument(help: "The person's handle, e.g. @alice or alice@example.social.")
    var handle: String

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        let corpus = try await store.openCorpus(in: directory)
        let outcome = try await store.withStore(in: directory) { database in
            let outcome = try await CommandFailure.reporting {
                try await Forget(database: database, corpus: corpus).person(handle)
            }
            if outcome.counted + outcome.corpus > 0 {
                try await CommandLineAudit.record("forget", "a person's posts removed", database)
            }
            return outcome
        }
        guard outcome.counted + outcome.corpus > 0 else {
            throw CommandFailure("No post by \(TerminalText.line(handle)) is kept: nothing was removed.")
        }
        print(
            """
            Forgot \(TerminalText.line(handle)): \(postCount(outcome.counted)) removed from the counts of \
            \(grouped(outcome.terms)) \(outcome.terms == 1 ? "term" : "terms"), \(postCount(outcome.corpus)) from the \
            corpus.
            """)
    }
}

/// `smashtag corpus prune [--keep-days N]`: posts older than the project may keep them leave — the whole data's
/// keeping time and each tracked term's own (`track --keep`); counts stay unless asked.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove posts past their keeping time; their counts stay unless --forget-counts.",
        discussion: """
            The posts searches and tracking kept that were made more than --keep-days ago are reduced to what keeps \
            them counted (their network, id, time and the hashtags and users they named; their text, media, author \
            and address go): popularity, trends and networks stay as they were, and datasets no longer include them. \
            With --forget-counts they are removed with their counts instead. The corpus's posts made before then are \
            deleted (not the demo corpus's). A tracked term's own keeping time (track TERM --keep 90d) reduces its \
            older posts the same way, each once no other term keeps it, with or without --keep-days. `serve` does \
            the same every hour.
            """
    )

    @Option(name: .customLong("keep-days"), help: "Keep posts made within this many days (all the data).")
    var keepDays: Int?

    @Flag(name: .customLong("forget-counts"), help: "Take the older posts' counts back too.")
    var forgetCounts = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if let keepDays, keepDays < 1 {
            throw ValidationError("--keep-days needs a whole number of days, 1 or more (it was \(keepDays)).")
        }
        if forgetCounts, keepDays == nil {
            throw ValidationError("--forget-counts goes with --keep-days: the posts it removes are the older ones.")
        }
    }

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        let corpus = try await store.openCorpus(in: directory)
        let outcome = try await store.withStore(in: directory) { database in
            let outcome = try await CommandFailure.reporting {
                try await Retention(
                    database: database, corpus: corpus, keepDays: keepDays, forgetCounts: forgetCounts
                ).run()
            }
            if outcome.reduced + outcome.removed + outcome.corpus + outcome.forgottenByTrackedTerms > 0 {
                let whole = keepDays.map { "posts older than \($0) days" } ?? "tracked terms' keeping times"
                try await CommandLineAudit.record(
                    "prune", whole + (forgetCounts ? ", with their counts" : ""), database)
            }
            return outcome
        }
        if let keepDays {
            let kept =
                forgetCounts
                ? "\(postCount(outcome.removed)) removed with their counts"
                : "\(postCount(outcome.reduced - outcome.byTrackedTerms)) reduced to their counts"
            print(
                """
                Posts made more than \(keepDays) days ago: \(kept), \(postCount(outcome.corpus)) deleted from the \
                corpus.
                """)
        }
        if keepDays == nil || outcome.byTrackedTerms + outcome.forgottenByTrackedTerms > 0 {
            let forgotten =
                outcome.forgottenByTrackedTerms > 0
                ? ", \(postCount(outcome.forgottenByTrackedTerms)) taken out of their term's counts" : ""
            print(
                """
                Tracked terms' own keeping times: \(postCount(outcome.byTrackedTerms)) reduced to their \
                counts\(forgotten).
                """)
        }
    }
}
