/// A post in its conversation, as people read one: the posts it answers, the root first, the post itself, and the
/// replies below it as a tree, each level oldest first. What a network refuses or has deleted is a row saying so
/// (`ThreadItem.unavailable`), never a gap; what a page leaves out is counted (`moreReplies`), never dropped.
public struct PostThread: Sendable {
    /// The posts it answers, the root first; the first may be a post no longer available.
    public let ancestors: [ThreadItem]
    public let post: Post
    /// Its replies, oldest first, each with theirs.
    public let replies: [ThreadBranch]
    /// Direct replies to `post` after those shown: the next page begins after the last one shown.
    public let moreReplies: Int
    /// What the thread leaves out and why, one sentence each ("The chain above goes on: …").
    public let notes: [String]
    /// Where the thread came from ("Mastodon (mastodon.social)", "the corpus").
    public let source: String

    public init(
        ancestors: [ThreadItem], post: Post, replies: [ThreadBranch], moreReplies: Int, notes: [String],
        source: String
    ) {
        (self.ancestors, self.post, self.replies) = (ancestors, post, replies)
        (self.moreReplies, self.notes, self.source) = (max(0, moreReplies), notes, source)
    }

    /// Every post the thread shows, in reading order: ancestors, the post, then the replies depth first.
    public var shownPosts: [Post] {
        ancestors.compactMap(\.post) + [post] + replies.flatMap(\.shownPosts)
    }

    /// The thread as someone may see it: each post as `shown` gives it, and where it gives none, a row saying the
    /// post is for people signed in; nil when the post itself is not to be shown.
    public func shown(_ shown: (Post) -> Post?) -> PostThread? {
        guard let post = shown(post) else { return nil }
        return PostThread(
            ancestors: ancestors.map { $0.shown(shown) }, post: post, replies: replies.map { $0.shown(shown) },
            moreReplies: moreReplies, notes: notes, source: source)
    }
}

/// One place in a thread: a post, or the post that was there and cannot be shown.
public enum ThreadItem: Sendable {
    case post(Post)
    /// A post the thread names (by its id) that the source cannot give, and why.
    case unavailable(id: String, ThreadGap)

    public var post: Post? {
        if case .post(let post) = self { post } else { nil }
    }

    /// The id of the post in this place: where a page of replies that ends here goes on from.
    public var id: String {
        switch self {
        case .post(let post): post.id
        case .unavailable(let id, _): id
        }
    }

    fileprivate func shown(_ shown: (Post) -> Post?) -> ThreadItem {
        guard case .post(let post) = self else { return self }
        return shown(post).map(ThreadItem.post) ?? .unavailable(id: post.id, .signedInOnly)
    }
}

/// Why a post of a thread is not shown: each a sentence a row says in its place.
public enum ThreadGap: Sendable, Equatable {
    /// Deleted, or gone with its account, or never seen by the source asked.
    case notFound
    /// Hidden by a block between its author and the viewer the network answered for.
    case blocked
    /// Its author shows their posts only to people signed in, and the person reading is not.
    case signedInOnly
    /// The chain of replies comes back to a post already shown: hostile or broken data.
    case cycle

    public var sentence: String {
        switch self {
        case .notFound: "A post that is no longer available."
        case .blocked: "A post hidden by a block."
        case .signedInOnly: "A post its author shows only to people who are signed in."
        case .cycle: "A reply that loops back to a post already shown."
        }
    }
}

/// A reply and the replies below it.
public struct ThreadBranch: Sendable {
    public let item: ThreadItem
    /// Oldest first.
    public let replies: [ThreadBranch]
    /// Replies to this post that are not shown here (below the depth a page shows, or past the number it shows at
    /// one level): its own thread shows them.
    public let moreReplies: Int

    public init(item: ThreadItem, replies: [ThreadBranch] = [], moreReplies: Int = 0) {
        (self.item, self.replies, self.moreReplies) = (item, replies, max(0, moreReplies))
    }

    var shownPosts: [Post] {
        (item.post.map { [$0] } ?? []) + replies.flatMap(\.shownPosts)
    }

    fileprivate func shown(_ shown: (Post) -> Post?) -> ThreadBranch {
        ThreadBranch(item: item.shown(shown), replies: replies.map { $0.shown(shown) }, moreReplies: moreReplies)
    }
}

/// How much of a conversation one thread shows, the same for every source: a chain of a thousand ancestors at most
/// (a 10,000-deep chain is cut, and says so), four levels of replies below the post, fifty direct replies a page and
/// ten below each reply, three hundred posts in all.
public struct ThreadLimits: Sendable, Equatable {
    public var ancestors = 1_000
    public var depth = 4
    public var directReplies = 50
    public var nestedReplies = 10
    public var posts = 300

    public init() {}

    /// How many replies a level shows: the post's own are paged, deeper ones cut.
    public func replies(atDepth depth: Int) -> Int {
        depth == 1 ? directReplies : nestedReplies
    }

    /// "1 more reply", "12 more replies": what a link to the replies not shown says.
    public static func more(_ count: Int) -> String {
        count == 1 ? "1 more reply" : "\(grouped(count)) more replies"
    }

    /// The note for a chain cut at the bound.
    var ancestorsCut: String {
        "The chain of posts above goes on: the \(grouped(ancestors)) nearest are shown."
    }
}

/// Where a post's thread comes from: a network's own thread (Mastodon's `context`, Bluesky's `getPostThread`, X's
/// `conversation_id`) or the replies the corpus stores.
public protocol ThreadSource: Sendable {
    /// The post's thread, its direct replies after the reply `after` (the page after the one that ended there); nil
    /// when the source has no such post. Throws, saying why, when it cannot answer.
    func thread(of post: PostKey, after: String?, limits: ThreadLimits) async throws -> PostThread?
}
