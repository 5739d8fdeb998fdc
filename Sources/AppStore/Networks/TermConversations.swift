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

    public let mostRepliedTo: [Target]
    public let mostQuoted: [Target]
    public let starters: [Starter]

    public var isEmpty: Bool { mostRepliedTo.isEmpty && mostQuoted.isEmpty }

    /// How many of each a page shows.
    public static let limit = 5
}
