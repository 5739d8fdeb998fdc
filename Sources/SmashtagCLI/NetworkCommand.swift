import AppStore
import ArgumentParser
import Exports
import Posts
import SmashtagApp

/// `smashtag network TERM`: which hashtags and users go together in the posts fetched for a term, as a network for
/// Gephi, networkx or a spreadsheet.
struct NetworkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract: "Export a search term's network: its top hashtags and users and how often each two are named in "
            + "the same post, or who replies to, quotes or reposts whom.",
        discussion: """
            Nodes are the term's most mentioned hashtags and users in the window (by the posts' own times), edges the \
            number of posts naming both. With --kind replies, quotes or reposts: the users who act or are acted on \
            most, sized by what they received, and directed edges from the one who acts, weighted by posts. json: \
            {"term", "kind", "window", "nodes": [{"mention", "kind", "count"}], "edges": [{"source", "target", \
            "weight"}]}; csv: source,target,weight (source,target,kind,weight for a conversation); gexf: GEXF 1.3 for \
            Gephi and networkx, directed for a conversation, dynamic with --by. The term must be in Recents.
            """
    )

    @Argument(help: "A search term from Recents (case-insensitive).")
    var term: String

    @Option(help: "mentions (named together), replies, quotes or reposts (who acts on whom, directed).")
    var kind: NetworkKind = .mentions

    @Option(help: "24h, 7d, 30d or all.")
    var window: TimeWindow = .all

    @Option(help: "How many of the most mentioned hashtags and users are nodes (1–500).")
    var top: Int = 50

    @Option(name: .customLong("min-weight"), help: "Leave out edges of fewer posts than this.")
    var minimumWeight: Int = 1

    @Flag(name: .customLong("without-term-hashtags"), help: "Leave out the hashtags the term itself asks for.")
    var leavesOutTermHashtags = false

    @Option(name: .customLong("by"), help: "day or week: a GEXF whose timeline plays the network (gexf only).")
    var timeline: TimelineStep?

    @Option(help: "json, csv or gexf.")
    var format: NetworkFormat = .json

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard NetworkOptions.topRange.contains(top) else { throw ValidationError("--top must be from 1 to 500.") }
        guard minimumWeight >= 1 else { throw ValidationError("--min-weight must be at least 1.") }
        guard timeline == nil || format == .gexf else {
            throw ValidationError("--by makes a timeline for Gephi: use it with --format gexf.")
        }
        guard timeline == nil || !kind.isDirected else {
            throw ValidationError("--by plays the network of hashtags and users named together (--kind mentions) only.")
        }
    }

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        let options = NetworkOptions(
            kind: kind, window: window, top: top, minimumWeight: minimumWeight,
            leavesOutTermHashtags: leavesOutTermHashtags,
            timeline: timeline)
        let network = try await store.withStore(in: directory) { database in
            try await CommandFailure.reporting { try await Popularity(database: database).network(for: term, options) }
        }
        guard let network else {
            throw CommandFailure("“\(term)” is not in Recents: networks are made from the posts fetched for a search.")
        }
        let text = NetworkFile.text(network, format)
        print(format == .json ? text : StandardOutput.data(text), terminator: "")
    }
}

extension TimeWindow: ExpressibleByArgument {}
extension TimelineStep: ExpressibleByArgument {}
extension NetworkKind: ExpressibleByArgument {}
extension NetworkFormat: ExpressibleByArgument {}
