import ArgumentParser
import Corpus
import DemoCorpus
import Foundation
import Logging
import PostgresSupport
import Posts
import SmashtagApp

/// `smashtag corpus …`: manage the local corpus.
struct CorpusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus",
        abstract: "Manage the corpus.",
        subcommands: [Generate.self, CopyCorpus.self, RecheckCommand.self, PruneCommand.self]
    )
}

/// `smashtag corpus generate`: the demo corpus, the same for the same seed and end date.
struct Generate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate demo tweets into the corpus, or as twarc2 JSON Lines with --out.",
        discussion:
            "The tweets are the same for the same --seed, --tweets and --end; they span the 30 days before --end."
    )

    // `--tweets`: the demo's posts are X-shaped, and scripts have called it so since the first release.
    @Option(name: .customLong("tweets"), help: "How many posts.")
    var posts = Demo.defaultCount

    @Option(help: "The random seed.")
    var seed = Demo.defaultSeed

    @Option(
        help: "The last tweet's time: an ISO-8601 date (its first moment, UTC) or date and time (default: now).",
        transform: Generate.date)
    var end: Date = .now

    @Option(help: "Write twarc2 JSON Lines to this file instead of storing the tweets.")
    var out: String?

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard posts > 0 else { throw ValidationError("--tweets must be at least 1.") }
    }

    func run() async throws {
        var progress = ProgressLine()
        if let out {
            try writeTwarc(to: out, progress: &progress)
        } else {
            let corpus = try await store.openCorpus(in: DataDirectory(common.dataDirectory))
            try await Demo.generate(into: corpus, seed: seed, count: posts, end: end) { stored in
                progress.show { seconds in
                    "Generating: \(grouped(stored)) tweets, \(grouped(Int(Double(stored) / max(seconds, 0.001))))/s"
                }
            }
        }
        progress.clear()
        print("Generated \(grouped(posts)) tweets in \(String(format: "%.1f", progress.elapsed.seconds))s.")
    }

    private func writeTwarc(to path: String, progress: inout ProgressLine) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else {
            throw CommandFailure("cannot write “\(path)”.")
        }
        defer { try? file.close() }
        var generator = DemoGenerator(seed: seed, count: posts, end: end)
        var written = 0
        while case let page = generator.next(TwarcWriter.pageSize), !page.isEmpty {
            try file.write(contentsOf: TwarcWriter().line(for: page))
            written += page.count
            progress.show { _ in "Writing \(path): \(grouped(written)) tweets" }
        }
    }

    /// An ISO-8601 date and time, or a date alone (its first moment, UTC).
    static func date(_ text: String) throws -> Date {
        let isDate = text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil
        guard let date = try? Date(isDate ? text + "T00:00:00Z" : text, strategy: .iso8601) else {
            throw ValidationError(
                "--end must be an ISO-8601 date, like 2026-11-21, or a date and time, like 2026-11-21T12:00:00Z.")
        }
        return date
    }
}

/// `smashtag corpus copy --to postgresql://…`: the data directory's SQLite corpus into PostgreSQL, for servers to
/// share.
struct CopyCorpus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy the data directory's corpus into PostgreSQL, where several servers share it.",
        discussion: """
            A batch of posts per transaction; interrupted or killed, the same command resumes after the last batch \
            committed, and posts already there are not copied twice. A corpus holding the generated demo is copied \
            only into an empty database, and real posts never into one holding the demo.
            """
    )

    @Option(help: ArgumentHelp("The PostgreSQL database to copy into.", valueName: "postgresql://user@host:port/db"))
    var to: String

    @OptionGroup var common: CommonOptions

    func validate() throws {
        do { _ = try PostgresURL(to) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        guard FileManager.default.fileExists(atPath: directory.corpus) else {
            throw CommandFailure("there is no corpus to copy in \(directory.path).")
        }
        let source = try await SQLiteCorpus.open(at: directory.corpus)
        var logger = Logger(label: "smashtag")
        logger.logLevel = .warning
        let location = try StoreLocation(option: to)
        let target = try await CommandFailure.reporting { try await location.openCorpus(in: directory, logger: logger) }
        var progress = ProgressLine()
        let totals = try await CommandFailure.reporting {
            try await CorpusCopy(from: source, to: target).run { totals in
                progress.show { seconds in
                    let done = totals.resumedAfter + totals.copied + totals.present
                    let rate = Double(totals.copied + totals.present) / max(seconds, 0.001)
                    return "Copying: \(grouped(done)) of \(grouped(totals.total)) posts, \(grouped(Int(rate)))/s"
                }
            }
        }
        progress.clear()
        let resumed = totals.resumedAfter > 0 ? ", resuming after \(grouped(totals.resumedAfter))" : ""
        print(
            """
            Copied \(grouped(totals.copied)) posts (\(grouped(totals.present)) were there already\(resumed)) in \
            \(String(format: "%.1f", progress.elapsed.seconds))s.
            """)
    }
}
