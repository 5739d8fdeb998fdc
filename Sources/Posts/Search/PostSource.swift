/// Where posts come from: the local corpus or a network. Every face of Smashtag searches through this.
public protocol PostSource: Sendable {
    /// One page of posts, newest first.
    func search(_ request: SearchRequest) async throws -> SearchPage

    /// How much of the network's rate limit is left (see the extension's default).
    var budget: RateLimitBudget? { get }
}

/// What to fetch: a query, how many, and which part of the results.
public struct SearchRequest: Sendable, Hashable, Codable {
    /// The most a page can hold, as on the X API.
    public static let maximumCount = 100

    public let query: String
    /// 1…100.
    public let count: Int
    public let position: Position

    /// Which posts of the results a page holds.
    public enum Position: Sendable, Hashable, Codable {
        /// The newest posts.
        case newest
        /// Posts newer than the post with this id: the ones just after it, so nothing is skipped.
        case newer(than: String)
        /// Posts older than the post with this id; `token` is the source's own paging token when it has one.
        case older(than: String, token: String?)
    }

    public init(query: String, count: Int = 20, position: Position = .newest) {
        self.query = query
        self.count = min(max(count, 1), Self.maximumCount)
        self.position = position
    }

    /// The same search at another position.
    public func at(_ position: Position) -> SearchRequest {
        SearchRequest(query: query, count: count, position: position)
    }

    /// What comes after a page of `posts` (newest first) fetched for this request: the posts newer than its
    /// newest, or this request again when it found nothing.
    public func newer(after posts: [Post]) -> SearchRequest {
        posts.first.map { at(.newer(than: $0.id)) } ?? self
    }

    /// What lies before a page of `posts`: nil when the source has nothing more, and for a page of newer posts,
    /// whose older side the caller already has.
    public func older(after posts: [Post], hasMore: Bool, token: String? = nil) -> SearchRequest? {
        if case .newer = position { return nil }
        guard hasMore, let oldest = posts.last else { return nil }
        return at(.older(than: oldest.id, token: token))
    }
}

/// A page of results and how to go on from it.
public struct SearchPage: Sendable {
    /// Newest first.
    public let posts: [Post]
    /// Tweets that arrive after this page.
    public let newer: SearchRequest
    /// The posts before this page; nil when there are none (or, for a page of newer posts, when the older side
    /// is already known to the caller).
    public let older: SearchRequest?
    /// What the source reported but could still serve the page around (a live API's partial errors).
    public let problems: [String]
    /// Where the source goes on when a merged page shows only part of its posts; nil for a source whose positions
    /// are its posts' ids.
    public let cuts: (any PageCuts)?

    public init(
        posts: [Post], newer: SearchRequest, older: SearchRequest?, problems: [String] = [],
        cuts: (any PageCuts)? = nil
    ) {
        self.posts = posts
        self.newer = newer
        self.older = older
        self.problems = problems
        self.cuts = cuts
    }

    /// Where the source goes on from `post`, one of this page's, when it is the newest shown (or the oldest): its
    /// cut, or its id.
    func position(after post: Post, newer: Bool) -> String {
        guard let cuts, let index = posts.firstIndex(where: { $0.key == post.key }) else { return post.id }
        return newer ? cuts.newer(at: index) : cuts.older(at: index)
    }
}

/// A source's positions at any post of its page, for a source that does not go on from a post's id (several servers,
/// each with its own ids for the post): worked out when asked, as a merged page needs one or two of them.
public protocol PageCuts: Sendable {
    /// Where the source goes on when the post at `index` is the newest shown.
    func newer(at index: Int) -> String
    /// Where it goes on when the post at `index` is the oldest shown.
    func older(at index: Int) -> String
}

/// A source made of several with rate limits of their own (a fleet of servers): background work asks it through
/// `forBackground`, which passes over each part whose window is down to the share kept for people's searches.
public protocol BackgroundSource: PostSource {
    var forBackground: any PostSource { get }
}

extension PostSource {
    /// The source's rate-limit budget, for a source that has one to keep (the networks' clients); nil for one that
    /// has none (the corpus).
    public var budget: RateLimitBudget? { nil }
}
