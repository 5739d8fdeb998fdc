import AppStore
import ArgumentParser
import Foundation
import Logging
import Posts
import SmashtagApp
import Tracking

/// `smashtag collect [TERM…]`: the tracker in the foreground, without the web app.
struct CollectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Collect the tracked terms (or those named) on their schedule until stopped (Ctrl-C).",
        discussion: """
            What serve does beside the web app: each tracked term due is fetched from its sources, newer posts \
            only, counted once each. Several collect or serve processes may run on the same data: each term is \
            fetched by one at a time.
            """
    )

    @Argument(help: "Tracked terms to collect (default: every tracked term).")
    var terms: [String] = []

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        let choice = try SourceChoice(common, directory: directory)
        try await store.withStore(in: directory) { database in
            let tracked = TrackedTerms(database: database)
            try await checkTracked(tracked)
            let sources = try await choice.open(in: directory, at: try store.location())
            var logger = Logger(label: "smashtag")
            logger.logLevel = .warning
            let tracker = Tracker(terms: tracked, sources: sources, only: terms.isEmpty ? nil : terms, logger: logger)
            let which = terms.isEmpty ? "every tracked term" : "“" + terms.joined(separator: "”, “") + "”"
            StandardError.write("smashtag: collecting \(which); Ctrl-C stops.")
            let running = Task { try await tracker.run() }
            let stop = StopSignals { running.cancel() }
            _ = await running.result
            stop.cancel()
            let now = try await CommandFailure.reporting { try await tracked.all() }
            print(
                TrackingText(now.filter { terms.isEmpty || names(terms).contains($0.key) }, style: .standardOutput)
                    .text,
                terminator: "")
        }
    }

    /// Every term named is tracked: one that is not is said before anything runs.
    private func checkTracked(_ tracked: TrackedTerms) async throws {
        let keys = Set(try await CommandFailure.reporting { try await tracked.all() }.map(\.key))
        for term in terms where !keys.contains(names([term]).first ?? term) {
            throw CommandFailure("“\(term)” is not tracked: smashtag track '\(term)' first.")
        }
    }

    private func names(_ terms: [String]) -> Set<String> {
        Set(terms.compactMap { try? SearchTermKey($0).key })
    }
}
