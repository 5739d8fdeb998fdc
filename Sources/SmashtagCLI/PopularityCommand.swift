import AppStore
import ArgumentParser
import Exports
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

    @Option(help: "24h, 7d, 30d or all (by the posts' own times); a window is compared with the one before it.")
    var window: TimeWindow = .all

    @Option(
        help: """
            text, json, or csv (mention,kind,count,previous,change,partners: one row per mention, for a spreadsheet).
            """)
    var format: TableFormat = .text

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        let (table, origins) = try await store.withStore(in: directory) { database in
            try await CommandFailure.reporting {
                guard try await Popularity(database: database).isCounted(term) else {
                    throw CommandFailure(Popularity.notInRecents(TerminalText.line(term)))
                }
                return (
                    try await Popularity(database: database).table(for: term, window: window),
                    try await Origins(database: database).of(term, window: window)
                )
            }
        }
        switch format {
        case .json: print(PublicJSON.text(table))
        case .text:
            print(
                (origins?.sentence).map { TerminalText.line($0) + "\n\n" } ?? "", text(table),
                origins.map(servers) ?? "", separator: "", terminator: "")
        case .csv: print(StandardOutput.data(PopularityFile.csv(table)), terminator: "")
        }
    }

    private func text(_ table: PopularityTable) -> String {
        let style = TerminalStyle.standardOutput
        let sections = table.sections.filter { !$0.rows.isEmpty }
        let within = table.window == .all ? "" : " in \(table.window.span)"
        guard !sections.isEmpty else {
            return """
                No hashtag or user is mentioned more than once\(within) in the posts fetched for \
                “\(TerminalText.line(table.term))”.\n
                """
        }
        return sections.map { section in
            let kind: Posts.Mention.Kind = section.kind == .hashtags ? .hashtag : .user
            let rows = section.rows.map { mention in
                let change = table.momentum(of: mention).map { "  " + Self.change($0) } ?? ""
                let partners = table.partners(of: mention)
                let with = partners.isEmpty ? "" : "  " + style.dim("with " + partners.joined(separator: ", "))
                return "  \(style.mention(mention.mention, kind: kind))  \(mention.count)\(change)\(with)"
            }
            return ([style.bold(section.title)] + rows).joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// The Servers table, when several Mastodon servers asked as one fed the term: where its posts were written and
    /// which servers gave them.
    private func servers(_ origins: TermOrigins) -> String {
        let rows = origins.servers
        guard !rows.isEmpty else { return "" }
        let style = TerminalStyle.standardOutput
        let lines = rows.map { row in
            "  \(TerminalText.line(row.server))  written on \(grouped(row.written))  gave \(grouped(row.gave))"
        }
        return "\n" + ([style.bold("Servers")] + lines).joined(separator: "\n") + "\n"
    }

    /// "new", "+3", "−2", "=": against the window before.
    private static func change(_ momentum: Momentum) -> String {
        switch momentum {
        case .new: "new"
        case .rising(let by): "+\(by)"
        case .falling(let by): "−\(by)"
        case .steady: "="
        }
    }
}
