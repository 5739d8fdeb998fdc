import AppStore
import ArgumentParser
import Posts
import SmashtagApp

/// `smashtag popularity TERM`: the hashtags and users most mentioned across every post fetched for the term.
struct PopularityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "popularity",
        abstract: "Show the hashtags and users mentioned more than once across all posts fetched for a search term.",
        discussion: "Counted once per post per term, however often a post is fetched; the term must be in Recents."
    )

    @Argument(help: "A search term from Recents (case-insensitive).")
    var term: String

    @Option(help: "text, json, or csv (mention,kind,count: one row per mention, for a spreadsheet).")
    var format: TableFormat = .text

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        let table = try await store.withStore(in: directory) { database in
            try await CommandFailure.reporting { try await Popularity(database: database).table(for: term) }
        }
        switch format {
        case .json: print(PublicJSON.text(table))
        case .text: print(text(table), terminator: "")
        case .csv: print(csv(table), terminator: "")
        }
    }

    /// A header, then hashtags and users by count, as the table orders them.
    private func csv(_ table: PopularityTable) -> String {
        let rows = table.sections.flatMap { section in
            section.rows.map {
                CSV.row([$0.mention, section.kind == .hashtags ? "hashtag" : "user", String($0.count)])
            }
        }
        return CSV.row(["mention", "kind", "count"]) + rows.joined()
    }

    private func text(_ table: PopularityTable) -> String {
        let style = TerminalStyle.standardOutput
        let sections = table.sections.filter { !$0.rows.isEmpty }
        guard !sections.isEmpty else {
            return "No hashtag or user is mentioned more than once in the posts fetched for “\(table.term)”.\n"
        }
        return sections.map { section in
            let kind: Posts.Mention.Kind = section.kind == .hashtags ? .hashtag : .user
            let rows = section.rows.map { "  \(style.mention($0.mention, kind: kind))  \($0.count)" }
            return ([style.bold(section.title)] + rows).joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }
}
