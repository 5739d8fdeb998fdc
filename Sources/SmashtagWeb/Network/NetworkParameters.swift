import AppStore
import Exports
import Hummingbird

/// What a Network page or its export asks for: `term`, `kind=mentions|replies|quotes|reposts`, `window=24h|7d|30d|all`,
/// `top` (nodes), `min` (the lightest edge, in posts), `exclude=term` (leave out the term's own hashtags) and, for
/// exports, `format=json|csv|gexf` and `by=day|week` (a GEXF timeline). A bad value is refused with a sentence naming
/// it.
struct NetworkParameters: Sendable {
    /// The sizes the page offers: a phone draws a few dozen nodes legibly.
    static let pageTops = [10, 20, 30, 50, 100]
    static let pageTop = 30

    let term: String
    let options: NetworkOptions
    let format: NetworkFormat

    init(_ parameters: QueryString, isPage: Bool) throws {
        guard let term = parameters.text("term") else {
            throw RefusedRequest(.badRequest, "Choose a term in Recents to see what goes with what: ?term=…")
        }
        self.term = term
        let kind = try parameters.choice(
            "kind", default: NetworkKind.mentions, else: "kind must be mentions, replies, quotes or reposts.")
        let window = try TimeWindow.parameter(parameters)
        let top = try Self.number(
            parameters, "top", default: isPage ? Self.pageTop : 50,
            range: isPage ? 1...(Self.pageTops.last ?? 100) : NetworkOptions.topRange,
            sentence: isPage ? "top must be a number from 1 to 100." : "top must be a number from 1 to 500.")
        let minimumWeight = try Self.number(
            parameters, "min", default: 1, range: 1...Int(Int32.max),
            sentence: "min must be a number of posts, 1 or more.")
        let timeline = try parameters["by"].map { value in
            guard let step = TimelineStep(rawValue: value) else {
                throw RefusedRequest(.badRequest, "by must be day or week.")
            }
            return step
        }
        format = try parameters.choice("format", default: NetworkFormat.json, else: "format must be json, csv or gexf.")
        // As `smashtag network --by` is refused without `--format gexf`: a timeline only GEXF can carry.
        if !isPage, timeline != nil, format != .gexf {
            throw RefusedRequest(.badRequest, "by makes a timeline for Gephi: use it with format=gexf.")
        }
        if !isPage, timeline != nil, kind.isDirected {
            throw RefusedRequest(
                .badRequest, "by plays the network of hashtags and users named together (kind=mentions) only.")
        }
        options = NetworkOptions(
            kind: kind, window: window, top: top, minimumWeight: minimumWeight,
            leavesOutTermHashtags: parameters["exclude"] == "term",
            timeline: format == .gexf && !kind.isDirected ? timeline : nil)
    }

    private static func number(
        _ parameters: QueryString, _ name: String, default value: Int, range: ClosedRange<Int>, sentence: String
    ) throws -> Int {
        guard let text = parameters[name], !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else { throw RefusedRequest(.badRequest, sentence) }
        return number
    }

    /// The network, or a 404 with a sentence when the term is not in Recents.
    func network(in database: AppDatabase) async throws -> MentionNetwork {
        guard let network = try await Popularity(database: database).network(for: term, options) else {
            throw RefusedRequest(
                .notFound, "“\(term)” is not in Recents: networks are made from the posts fetched for a search.")
        }
        return network
    }
}
