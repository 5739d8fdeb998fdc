import AppStore
import ArgumentParser
import Posts
import SmashtagApp

/// `smashtag recents`: the last 100 search terms, most recent first.
struct RecentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recents",
        abstract: "List the most recent search terms (at most 100), most recent first.",
        subcommands: [List.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the recent search terms.")

        @Option(help: "text or json (an array of terms).")
        var format: OutputFormat = .text

        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let directory = try DataDirectory(common.dataDirectory)
            let terms = try await store.withStore(in: directory) { database in
                try await CommandFailure.reporting { try await Recents(database: database).terms() }
            }
            switch format {
            case .json: print(PublicJSON.text(terms))
            case .text: for term in terms { print(TerminalText.line(term)) }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a term from Recents, with its popularity counts."
        )

        @Argument(help: "The term, matched case-insensitively.")
        var term: String

        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let directory = try DataDirectory(common.dataDirectory)
            let deleted = try await store.withStore(in: directory) { database in
                try await CommandFailure.reporting {
                    let deleted = try await Recents(database: database).delete(term)
                    if deleted { try await CommandLineAudit.record("delete from Recents", term, database) }
                    return deleted
                }
            }
            guard deleted else {
                throw CommandFailure("“\(term)” is not in Recents.")
            }
        }
    }
}
