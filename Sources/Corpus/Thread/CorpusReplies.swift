import Posts

/// A page of the replies the corpus holds to one post, oldest first, and how many it holds from the page's start on.
public struct CorpusReplies: Sendable {
    public let posts: [Post]
    /// The replies from the page's start on, those on the page included.
    public let count: Int

    package init(posts: [Post], count: Int) {
        (self.posts, self.count) = (posts, count)
    }
}
