import Posts

/// What the stores read of a term's conversation network: its users who acted or were acted on most (in the window),
/// and the interactions among them.
struct ConversationRead: Sendable {
    struct User: Sendable {
        let id: Int64
        let shown: String
        let received: Int
    }

    struct Edge: Sendable {
        let source: Int64
        let target: Int64
        let weight: Int
    }

    var users: [User] = []
    var edges: [Edge] = []
}

extension MentionNetwork {
    /// A directed network: users (most active first, as read) sized by the interactions they received, and who
    /// acted on whom, heaviest first.
    init(term: String, options: NetworkOptions, conversation read: ConversationRead) {
        let index = Dictionary(uniqueKeysWithValues: read.users.enumerated().map { ($1.id, $0) })
        let edges = read.edges.filter { $0.weight >= options.minimumWeight }.compactMap { edge -> Edge? in
            guard let source = index[edge.source], let target = index[edge.target] else { return nil }
            return Edge(source: source, target: target, weight: edge.weight)
        }.sorted { ($1.weight, $0.source, $0.target) < ($0.weight, $1.source, $1.target) }
        self.init(
            term: term, options: options,
            nodes: read.users.map { Node(mention: $0.shown, kind: .users, count: $0.received) }, edges: edges)
    }
}
