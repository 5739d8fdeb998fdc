import AppStore
import ArgumentParser
import Posts
import SmashtagApp
import Tracking

/// `smashtag track TERM`: collect a search term over time.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Collect a search term over time: its newer posts on a schedule, while serve or collect runs.",
        discussion: """
            The term stays in Recents whatever the 100-term limit pushes out (at most \(TrackingPlan.most) tracked \
            terms). Each post is counted once, within each network's rate limit. --source chooses the sources \
            (default: every one the server offers when it fetches).
            """
    )

    @Argument(help: "The search term, written as you would search it, e.g. '#swift'.")
    var term: String

    @Option(help: "How often: 30s, 5m, 1h (at least 10s).")
    var every = "5m"

    @Option(help: "Also walk this many older pages, once, while the networks' limits leave room.")
    var backfill = 0

    @Option(
        help: """
            Keep the term's posts this long: 90d, 12w, 1y. Older ones are reduced to their counts (no other term \
            keeping them), hourly while serve runs, or by `smashtag corpus prune`.
            """)
    var keep: String?

    @Flag(
        name: .customLong("forget-counts"),
        help: "With --keep: the older posts leave the term's counts too (other terms keep theirs).")
    var forgetCounts = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard !term.allSatisfy(\.isWhitespace) else { throw ValidationError("Give a term to track, e.g. '#swift'.") }
        do { _ = try (SearchTermKey(term), SearchQuery(parsing: term)) } catch {
            throw ValidationError(error.description)
        }
        do { _ = try TrackingPlan.interval(every) } catch { throw ValidationError(error.description) }
        guard backfill >= 0 else { throw ValidationError("--backfill is a number of pages: 0 or more.") }
        do { _ = try keep.map(TrackingPlan.keepDays) } catch { throw ValidationError(error.description) }
        if forgetCounts, keep == nil {
            throw ValidationError("--forget-counts goes with --keep: the counts it forgets are the older posts'.")
        }
        _ = try sources()
    }

    func run() async throws {
        let plan = TrackingPlan(
            every: try TrackingPlan.interval(every), sources: try sources(), backfill: backfill,
            keepDays: try keep.map(TrackingPlan.keepDays), forgetsCounts: forgetCounts)
        let tracked = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
            try await CommandFailure.reporting {
                let tracked = try await TrackedTerms(database: database).track(term, plan)
                try await CommandLineAudit.record("track", "\(term) \(plan.everyText)", database)
                return tracked
            }
        }
        let from = plan.sources?.joined(separator: ", ") ?? "every source the server offers"
        let keeps = plan.keepText.map { "; it \($0)" } ?? ""
        print(
            """
            Tracking “\(TerminalText.line(tracked.term))” \(plan.everyText) from \(from)\(keeps): serve or collect \
            fetches it.
            """
        )
    }

    /// The sources `--source` names; nil for every source offered when it fetches. A known source not configured
    /// here is kept: the server that fetches the term may offer it, and one that does not says so in `tracking`.
    private func sources() throws -> [String]? {
        guard let list = common.source else { return nil }
        do { return try SourceCatalog.names(list)?.map(\.rawValue) } catch { throw ValidationError(error.description) }
    }
}
