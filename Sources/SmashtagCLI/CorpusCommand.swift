import ArgumentParser
import Corpus
import DemoCorpus
import Foundation
import Posts
import SmashtagApp

/// `smashtag corpus …`: manage the local corpus.
struct CorpusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus",
        abstract: "Manage the local tweet corpus.",
        subcommands: [Generate.self]
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

    @Option(help: "The last tweet's time, ISO-8601 (default: now).", transform: Generate.date)
    var end: Date = .now

    @Option(help: "Write twarc2 JSON Lines to this file instead of storing the tweets.")
    var out: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard posts > 0 else { throw ValidationError("--tweets must be at least 1.") }
    }

    func run() async throws {
        var progress = ProgressLine()
        if let out {
            try writeTwarc(to: out, progress: &progress)
        } else {
            let corpus = try SQLiteCorpus.open(at: DataDirectory(common.dataDirectory).corpus)
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

    private static func date(_ text: String) throws -> Date {
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw ValidationError("--end must be an ISO-8601 date and time, like 2026-11-21T12:00:00Z.")
        }
        return date
    }
}
