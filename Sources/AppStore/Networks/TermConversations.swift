import Posts

/// A term's conversations over all its counted posts: the posts replied to and quoted most (whether or not they were
/// fetched themselves), and the people whose posts drew the most replies — who start conversations.
public struct TermConversations: Sendable, Hashable {
    /// A post replied to or quoted `count` times among the term's posts; its author when one of them said who.
    public struct Target: Sendable, Hashable {
        public let post: PostKey
        public let author: String?
        public let count: Int
    }

    /// Someone whose `posts` drew `replies` replies among the term's posts.
    public struct Starter: Sendable, Hashable {
        public let user: String
        public let posts: Int
        public let replies: Int
    }

    /// The term as last searched.
    public let term: String
    public let mostRepliedTo: [Target]
    public let mostQuoted: [Target]
    public let starters: [Starter]

    public var isEmpty: Bool { mostRepliedTo.isEmpty && mostQuoted.isEmpty }

    /// How many of each a page shows, and the most an API caller may ask for.
    public static let limit = 5
    public static let limits = 1...100
}

extension TermConversations: Encodable {
    private enum CodingKeys: String, CodingKey { case term, mostRepliedTo, mostQuoted, starters }
}

extension TermConversations.Target: Encodable {
    private enum CodingKeys: String, CodingKey { case network, id, author, count }

    /// `{"network", "id", "author"?, "count"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(post.network.rawValue, forKey: .network)
        try container.encode(post.id, forKey: .id)
        try container.encodeIfPresent(author, forKey: .author)
        try container.encode(count, forKey: .count)
    }
}

extension TermConversations.Starter: Encodable {}
