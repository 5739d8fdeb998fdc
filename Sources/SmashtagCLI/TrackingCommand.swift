import AppStore
import ArgumentParser
import Foundation
import Posts
import SmashtagApp
import Tracking

/// `smashtag tracking`: every tracked term, its schedule, its posts and each source's last failure.
struct TrackingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking",
        abstract: "List the tracked terms: sources, interval, last and next fetch, posts, each source's last error.")

    @Option(help: "text or json (an array of tracked terms).")
    var format: OutputFormat = .text

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let terms = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
            try await CommandFailure.reporting { try await TrackedTerms(database: database).all() }
        }
        switch format {
        case .json: print(PublicJSON.text(terms))
        case .text: print(TrackingText(terms, style: .standardOutput).text, terminator: "")
        }
    }
}

/// Tracked terms for a terminal: a line each, and a line for each source that failed or skipped posts.
struct TrackingText {
    let terms: [TrackedTerm]
    let style: TerminalStyle

    init(_ terms: [TrackedTerm], style: TerminalStyle) {
        (self.terms, self.style) = (terms, style)
    }

    var text: String {
        guard !terms.isEmpty else { return "No term is tracked: smashtag track TERM starts one.\n" }
        return terms.map(lines).joined()
    }

    private func lines(_ term: TrackedTerm) -> String {
        let now = Date()
        let sources = term.plan.sources.map { TerminalText.line($0.joined(separator: ", ")) } ?? "every source"
        let fetched = term.fetched.map { "last fetched \(ElapsedTime.ago($0, now: now))" } ?? "not fetched yet"
        let next = term.due <= now ? "due now" : "next in \(ElapsedTime.span(term.due.timeIntervalSince(now)))"
        let backfill =
            (term.plan.backfill > 0 ? " · \(term.plan.backfill) older pages to go" : "")
            + (term.plan.keepText.map { " · \($0)" } ?? "")
        var lines = [
            "\(style.bold(term.term))  \(term.plan.everyText) · \(sources) · \(fetched) · \(next) · "
                + "\(grouped(term.posts)) posts\(backfill)"
        ]
        // Each sentence names its source.
        for source in term.sources {
            lines += [source.error, source.gap].compactMap { $0 }.map { "  " + style.dim($0) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
