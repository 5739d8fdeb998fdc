import ArgumentParser
import Foundation
import Logging
import Posts
import SmashtagApp

/// `smashtag volume TERM`: how much each configured network says there is for a term, before anyone collects it.
struct VolumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "volume",
        abstract: "Show how much each network says there is for a term, before collecting it.",
        discussion: """
            Mastodon: a hashtag's last 7 days of posts and accounts, as the server asked saw them (each server counts \
            only what reaches it). X: any query's posts by day over the last 7 days (counts/recent, with a token whose \
            access level includes it). Nothing is fetched into the corpus, recorded in Recents or counted.
            """
    )

    @Argument(help: "A hashtag, e.g. '#swift'.")
    var term: String

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    @OptionGroup var common: CommonOptions

    func run() async throws {
        _ = try await CommandFailure.reporting { try SearchTermKey(term) }
        let directory = try DataDirectory(common.dataDirectory)
        let choice = try SourceChoice(common, directory: directory)
        let networks = choice.names.filter { $0 != .corpus }
        let sources = choice.catalog.open(networks, corpus: nil, logger: Logger(label: "smashtag"))
        let report = await VolumeReport.ask(term, of: sources, naming: common.source != nil)
        for failure in report.failures { StandardError.write("smashtag: \(failure.message)") }
        for unable in report.unable {
            StandardError.write("smashtag: \(unable.title) cannot count “\(term)”: \(unable.why).")
        }
        guard !report.answers.isEmpty else {
            guard report.failures.isEmpty, report.unable.isEmpty else { throw ExitCode(1) }
            throw CommandFailure(
                """
                No configured network counts posts before collecting: set SMASHTAG_MASTODON_INSTANCE (Mastodon \
                counts a hashtag's last 7 days).
                """)
        }
        print(format == .json ? report.json(term: term) : text(report))
    }

    private func text(_ report: VolumeReport) -> String {
        var lines: [String] = []
        for answer in report.answers {
            let volume = answer.volume
            lines.append("\(answer.title): \(postCount(volume.posts)), \(volume.limits).")
            for day in volume.days {
                let accounts = day.accounts.map { " by \(grouped($0)) account\($0 == 1 ? "" : "s")" } ?? ""
                lines.append("  \(day.date)  \(postCount(day.posts))\(accounts)")
            }
        }
        return TerminalText.lines(lines.joined(separator: "\n"))
    }
}
