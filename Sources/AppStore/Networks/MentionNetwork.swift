import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a network is asked for: its kind, the window, the top `top` mentions by count (users by interactions), edges of
/// at least `minimumWeight` posts, and whether the term's own hashtags are left out (they go with everything);
/// `timeline` adds each node's and edge's counts by day or week, for a network that plays over time.
public struct NetworkOptions: Sendable, Hashable {
    public static let topRange = 1...500

    public var kind: NetworkKind
    public var window: TimeWindow
    public var top: Int
    public var minimumWeight: Int
    public var leavesOutTermHashtags: Bool
    public var timeline: TimelineStep?

    public init(
        kind: NetworkKind = .mentions, window: TimeWindow = .all, top: Int = 50, minimumWeight: Int = 1,
        leavesOutTermHashtags: Bool = false, timeline: TimelineStep? = nil
    ) {
        self.kind = kind
        self.window = window
        self.top = top
        self.minimumWeight = minimumWeight
        self.leavesOutTermHashtags = leavesOutTermHashtags
        self.timeline = timeline
    }
}

/// The steps of a network's timeline: days, or weeks from Monday (UTC).
public enum TimelineStep: String, Sendable, Hashable, CaseIterable {
    case day
    case week

    /// A step's length, and where the steps start in hours since 1970 (1970-01-05 was a Monday).
    var hours: Int { self == .day ? 24 : 168 }
    var offset: Int { self == .day ? 0 : 72 }

    /// When step number `index` starts.
    func start(of index: Int) -> Date {
        Date(timeIntervalSince1970: Double(index * hours - offset) * 3600)
    }
}

/// The co-mention network of a term: its most mentioned hashtags and users (nodes, most first, ties alphabetical)
/// and how many posts named each two of them together (edges, heaviest first).
public struct MentionNetwork: Sendable, Hashable {
    public struct Node: Sendable, Hashable {
        /// As first seen: `#Swift`, `@NASA`.
        public let mention: String
        public let kind: MentionSection.Kind
        public let count: Int

        public init(mention: String, kind: MentionSection.Kind, count: Int) {
            (self.mention, self.kind, self.count) = (mention, kind, count)
        }
    }

    /// Between `nodes[source]` and `nodes[target]`: `source < target` among co-mentions; in a conversation network,
    /// from the one who acted to the one acted on.
    public struct Edge: Sendable, Hashable {
        public let source: Int
        public let target: Int
        public let weight: Int

        public init(source: Int, target: Int, weight: Int) {
            (self.source, self.target, self.weight) = (source, target, weight)
        }
    }

    /// A count over one step of the timeline.
    public struct Spell: Sendable, Hashable {
        public let start: Date
        public let end: Date
        public let value: Int

        public init(start: Date, end: Date, value: Int) {
            (self.start, self.end, self.value) = (start, end, value)
        }
    }

    public let term: String
    public let options: NetworkOptions
    public let nodes: [Node]
    public let edges: [Edge]
    /// Per node and per edge, in the same order, the steps in which it was named (asked for with `timeline`).
    public let nodeSpells: [[Spell]]
    public let edgeSpells: [[Spell]]

    public init(
        term: String, options: NetworkOptions, nodes: [Node], edges: [Edge], nodeSpells: [[Spell]] = [],
        edgeSpells: [[Spell]] = []
    ) {
        self.term = term
        self.options = options
        self.nodes = nodes
        self.edges = edges
        self.nodeSpells = nodeSpells
        self.edgeSpells = edgeSpells
    }
}

extension MentionNetwork: Encodable {
    private enum CodingKeys: String, CodingKey { case term, kind, window, nodes, edges }

    private struct NodeRow: Encodable {
        let mention: String
        let kind: String
        let count: Int
    }

    private struct EdgeRow: Encodable {
        let source: String
        let target: String
        let weight: Int
    }

    /// `{"term", "kind", "window", "nodes": [{"mention", "kind", "count"}], "edges": [{"source", "target",
    /// "weight"}]}`, edges naming their nodes by mention; a conversation network's counts are interactions received.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(term, forKey: .term)
        try container.encode(options.kind, forKey: .kind)
        try container.encode(options.window, forKey: .window)
        try container.encode(
            nodes.map { NodeRow(mention: $0.mention, kind: $0.kind.singular, count: $0.count) }, forKey: .nodes)
        try container.encode(
            edges.map {
                EdgeRow(source: nodes[$0.source].mention, target: nodes[$0.target].mention, weight: $0.weight)
            }, forKey: .edges)
    }
}

extension MentionSection.Kind {
    /// "hashtag" or "user", as exports name a mention's kind.
    public var singular: String { self == .hashtags ? "hashtag" : "user" }
}

extension MentionNetwork {
    /// The network from what the stores read: the term's mentions in the window (any order), the pairs among the
    /// chosen nodes with their weights, and their counts by step when a timeline is asked for.
    init(
        term: String, options: NetworkOptions, nodes: [CountedMention],
        pairs: [(mention: Int64, partner: Int64, weight: Int)],
        nodeSteps: [(mention: Int64, step: Int, count: Int)] = [],
        pairSteps: [(mention: Int64, partner: Int64, step: Int, weight: Int)] = []
    ) {
        let index = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1.id, $0) })
        let edges = pairs.filter { $0.weight >= options.minimumWeight }.compactMap { pair -> (Edge, MentionPair)? in
            guard let one = index[pair.mention], let other = index[pair.partner] else { return nil }
            return (
                Edge(source: min(one, other), target: max(one, other), weight: pair.weight),
                MentionPair(pair.mention, pair.partner)
            )
        }.sorted { ($1.0.weight, $0.0.source, $0.0.target) < ($0.0.weight, $1.0.source, $1.0.target) }
        let step = options.timeline
        self.init(
            term: term, options: options,
            nodes: nodes.map {
                Node(mention: $0.shown, kind: MentionSection.Kind(code: $0.kind) ?? .hashtags, count: $0.count)
            },
            edges: edges.map(\.0),
            nodeSpells: step.map { step in
                let steps = Dictionary(grouping: nodeSteps, by: \.mention)
                return nodes.map { node in Self.spells(steps[node.id]?.map { ($0.step, $0.count) } ?? [], step) }
            } ?? [],
            edgeSpells: step.map { step in
                let steps = Dictionary(grouping: pairSteps) { MentionPair($0.mention, $0.partner) }
                return edges.map { edge in Self.spells(steps[edge.1]?.map { ($0.step, $0.weight) } ?? [], step) }
            } ?? [])
    }

    private static func spells(_ steps: [(step: Int, value: Int)], _ step: TimelineStep) -> [Spell] {
        steps.sorted { $0.step < $1.step }.map {
            Spell(start: step.start(of: $0.step), end: step.start(of: $0.step + 1), value: $0.value)
        }
    }

    /// The nodes a network draws from a term's mentions: leaving out the term's own hashtags if asked, the top ones
    /// by count, ties alphabetical.
    static func chosen(_ mentions: [CountedMention], term: String, options: NetworkOptions) -> [CountedMention] {
        let leftOut = options.leavesOutTermHashtags ? termHashtags(term) : []
        return mentions.filter { $0.count > 0 && !leftOut.contains($0.key) }
            .sorted { ($1.count, $0.key) < ($0.count, $1.key) }.prefix(options.top).map { $0 }
    }

    /// The hashtags a search term asks for (`#a OR #b -#c` asks for `#a` and `#b`), as mention keys.
    static func termHashtags(_ term: String) -> Set<String> {
        Set(
            term.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("#") && $0.count > 1 }.map {
                $0.lowercased()
            })
    }
}
