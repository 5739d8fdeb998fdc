import AppStore
import ArgumentParser
import SmashtagApp

/// `smashtag untrack TERM`: stop collecting a term (it stays in Recents, with its counts).
struct UntrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untrack", abstract: "Stop collecting a tracked term; it stays in Recents with its counts.")

    @Argument(help: "The tracked term (case-insensitive).")
    var term: String

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let untracked = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
            try await CommandFailure.reporting {
                let untracked = try await TrackedTerms(database: database).untrack(term)
                if untracked { try await CommandLineAudit.record("untrack", term, database) }
                return untracked
            }
        }
        guard untracked else { throw CommandFailure("“\(term)” is not tracked.") }
        print("Stopped tracking “\(TerminalText.line(term))”.")
    }
}
