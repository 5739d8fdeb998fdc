import AppStore
import ArgumentParser
import Corpus
import Dispatch
import Foundation
import LiveIndex
import Logging
import PostgresSupport
import Posts
import SmashtagApp
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smashtag ingest bluesky`: Bluesky's public firehose (Jetstream) into the corpus, live, no account needed.
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Index a live stream of posts into the local corpus.",
        subcommands: [IngestBluesky.self]
    )
}

struct IngestBluesky: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bluesky",
        abstract: "Index every new Bluesky post from Jetstream, Bluesky's public firehose, until stopped (Ctrl-C).",
        discussion: """
            Reads SMASHTAG_JETSTREAM_URL (default: \(LiveIndexSettings.defaultURL)) and resolves authors at \
            SMASHTAG_BLUESKY_APPVIEW (default: \(LiveIndexSettings.defaultAppView)). Commits at least every second, \
            with the stream's cursor; stopped or killed, it resumes where the last commit left off and stores no post \
            twice. Deleted posts leave the corpus. The posts are searchable at once (`smashtag search`, `serve`), \
            and by from:handle once their author is resolved.
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var live: LiveIndexArguments

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        try await store.withStore(in: directory) { database in
            let corpus = try await CommandFailure.reporting {
                try await LocalCorpus.corpus(in: directory, sharing: database)
            }
            var logger = Logger(label: "smashtag")
            logger.logLevel = .warning
            let index = try await JetstreamLiveIndex.open(corpus: corpus, settings: live.settings, logger: logger)
            let warnings = logger
            let report = IngestReport()
            let total = Mutex<IngestProgress?>(nil)
            // On PostgreSQL, one process among those given the same database indexes (a server's `--ingest` or
            // another `ingest`); this one waits, and takes over when that one stops.
            let running = Task {
                try await database.whileElected(.liveIndex) {
                    // Kept as it goes: cancelled, the election may end before the run's own total is returned.
                    let removals = LiveIndexRemovals(database: database)
                    let run = try await index.run(
                        progress: { progress in
                            report.show(progress)
                            total.withLock { $0 = progress }
                        }, removed: { await removals.apply($0, logger: warnings) })
                    total.withLock { $0 = run }
                }
            }
            let stop = StopSignals { running.cancel() }
            do { try await running.value } catch is CancellationError {}
            stop.cancel()
            if let total = total.withLock({ $0 }) {
                report.finish(total)
            } else {
                StandardError.write("smashtag: another process was indexing this database; this one stored nothing.")
            }
        }
    }
}

/// The networks a live index can follow.
enum LiveNetwork: String, ExpressibleByArgument, CaseIterable {
    case bluesky
}

/// What a live index keeps, as `ingest bluesky` and `serve --ingest bluesky` are told it.
struct LiveIndexArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Keep only posts with one of these hashtags (comma-separated).", valueName: "tags"))
    var tags: String?
    @Option(
        help: ArgumentHelp(
            "Keep only posts in one of these languages (comma-separated; en keeps en-US too).", valueName: "langs"))
    var langs: String?
    @Option(
        help: ArgumentHelp(
            """
            Remove posts made more than this many days ago, in the background (serve: every kept post, their counts \
            staying unless --forget-counts, and the corpus).
            """, valueName: "days"))
    var keepDays: Int?

    func validate() throws {
        if let keepDays, keepDays < 1 {
            throw ValidationError("--keep-days needs a whole number of days, 1 or more (it was \(keepDays)).")
        }
    }

    var options: LiveIndexOptions {
        LiveIndexOptions(tags: Self.list(tags), languages: Self.list(langs), keepDays: keepDays)
    }

    /// With Jetstream's and the profile directory's addresses from the environment.
    var settings: LiveIndexSettings {
        LiveIndexSettings(environment: ProcessInfo.processInfo.environment, options: options)
    }

    private static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

/// Progress while ingesting: a line rewritten on a terminal, a log line every ten seconds otherwise, and a summary.
final class IngestReport: Sendable {
    private struct State {
        var line = ProgressLine()
        var log = Throttle(every: .seconds(10), waitFirst: true)
    }

    private let state = Mutex(State())
    private let isTerminal = isatty(STDERR_FILENO) == 1

    func show(_ progress: IngestProgress) {
        state.withLock { state in
            if isTerminal {
                state.line.show { seconds in Self.describe(progress, seconds: seconds) }
            } else if state.log.allows() {
                StandardError.write(Self.describe(progress, seconds: state.line.elapsed.seconds))
            }
        }
    }

    func finish(_ total: IngestProgress) {
        state.withLock { $0.line.clear() }
        for problem in total.problems { StandardError.write("smashtag: skipped: \(problem)") }
        let cursor = total.cursor.map { " Resumes from \(Self.time(of: $0))." } ?? ""
        let passed = total.passedOver > 0 ? ", passed over \(grouped(total.passedOver)) not asked for" : ""
        let pruned = total.pruned > 0 ? ", pruned \(grouped(total.pruned)) past the days kept" : ""
        print(
            """
            Stored \(grouped(total.posts)) posts (\(grouped(total.duplicates)) already stored), \
            deleted \(grouped(total.deleted))\(passed)\(pruned), skipped \(grouped(total.skipped)).\(cursor)
            """
        )
        print("The corpus holds \(Self.corpus(total)).")
    }

    /// `12,345 posts · 2,034/s · 0.8 s behind · 3 deleted · 1 skipped · corpus 1,204,511 posts, 2.1 GB`.
    private static func describe(_ progress: IngestProgress, seconds: Double) -> String {
        let rate = seconds > 0 ? Int(Double(progress.posts) / seconds) : 0
        let lag = progress.lag().map { String(format: " · %.1f s behind", $0) } ?? ""
        return
            """
            \(grouped(progress.posts)) posts · \(grouped(rate))/s\(lag) · \(grouped(progress.deleted)) deleted \
            · \(grouped(progress.skipped)) skipped · corpus \(corpus(progress))
            """
    }

    /// `1,204,511 posts, 2.1 GB`.
    private static func corpus(_ progress: IngestProgress) -> String {
        let posts = progress.stored.map { "\(grouped($0)) posts" } ?? "? posts"
        let size = progress.bytesOnDisk.map { ", " + $0.formatted(.byteCount(style: .file)) } ?? ""
        return posts + size
    }

    private static func time(of cursor: Int64) -> String {
        Date(timeIntervalSince1970: Double(cursor) / 1_000_000).formatted(.iso8601)
    }
}
