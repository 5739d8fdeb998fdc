import Posts
import WireJSON

/// The post views of an `app.bsky.feed.*` answer, as the client reads them and as minet and the atproto SDKs save
/// them: `posts` (`searchPosts`, `getPosts`, `getQuotes`), `feed` (`getAuthorFeed`, `getTimeline`, `getFeed`,
/// `getListFeed`: items `{post, reason}`, where a `#reasonRepost` is a repost) or `thread` (`getPostThread`: the
/// post after its parents, then its replies).
package enum FeedResponse {
    /// The answer's post views or feed items, in order; nil when it is none of these answers.
    package static func items(of answer: JSONValue) -> [JSONValue]? {
        if let posts = answer["posts"]?.array { return posts }
        if let feed = answer["feed"]?.array { return feed }
        if let thread = answer["thread"], thread.object != nil { return parents(of: thread) + below(thread) }
        return nil
    }

    /// Each item as a post, or why it is not one.
    package static func posts(of answer: JSONValue) -> [Result<Post, BlueskyDecodingError>] {
        (items(of: answer) ?? []).map { item in
            Result { () throws(BlueskyDecodingError) in try PostViewDecoder.post(from: item) }
        }
    }

    /// The thread's ancestors, the root first. A post that is gone or blocked (`#notFoundPost`, `#blockedPost`) has
    /// no view and ends the chain.
    private static func parents(of node: JSONValue) -> [JSONValue] {
        var views: [JSONValue] = []
        var parent = node["parent"]
        while let current = parent, let view = current["post"], view.object != nil {
            views.append(view)
            parent = current["parent"]
        }
        return views.reversed()
    }

    /// A thread node's post, then its replies' threads in order.
    private static func below(_ node: JSONValue) -> [JSONValue] {
        guard let view = node["post"], view.object != nil else { return [] }
        return [view] + (node["replies"]?.array ?? []).flatMap(below)
    }
}
