import AppStore
import ArgumentParser
import Corpus
import Foundation
import Logging
import PostgresSupport
import SmashtagApp

/// Options every subcommand accepts.
struct CommonOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: "Where Smashtag keeps its data (default: $SMASHTAG_HOME, else the XDG data directory).")
    var dataDirectory: String?

    @Option(
        help: ArgumentHelp(
            "Where posts come from, as a comma list: corpus, x, mastodon, bluesky (default: every configured source).",
            valueName: "sources"))
    var source: String?
}

/// How a command prints.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// How a command that prints a table prints: also as CSV, for spreadsheets.
enum TableFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case csv
}

/// Where the app's store is, for the commands that use it: `serve`, `search`, `recents`, `popularity`, `trend`.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            """
            Keep the corpus, recents, sessions and popularity in PostgreSQL, shared by several servers (default: \
            $SMASHTAG_DATABASE_URL, else SQLite files in the data directory).
            """,
            valueName: "postgresql://user@host:port/db"))
    var url: String?

    func validate() throws {
        do { _ = try location() } catch { throw ValidationError(error.description) }
    }

    func location() throws(PostgresURLError) -> StoreLocation {
        try StoreLocation(option: url)
    }

    /// The corpus, or one sentence saying why it cannot be reached.
    func openCorpus(in directory: DataDirectory) async throws -> any LiveIndexCorpus {
        var logger = Logger(label: "smashtag")
        logger.logLevel = .warning
        return try await CommandFailure.reporting { try await location().openCorpus(in: directory, logger: logger) }
    }

    /// `body` with the store open, or one sentence saying why it cannot be reached.
    func withStore<T: Sendable>(in directory: DataDirectory, _ body: (AppDatabase) async throws -> T) async throws -> T
    {
        var logger = Logger(label: "smashtag")
        logger.logLevel = .warning
        let database = try await CommandFailure.reporting { try await location().open(in: directory, logger: logger) }
        return try await database.withConnections(body)
    }
}
