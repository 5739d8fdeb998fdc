import Posts
import Synchronization

/// A source that answers with the pages a test scripts, whatever the request: it stands for a network or the corpus
/// at the boundary, so a test decides exactly which posts a fetch returns.
public final class ScriptedSource: PostSource, Sendable {
    private let pages = Mutex<[[Post]]>([])

    public init() {}

    /// The pages the next searches answer, in turn; an empty page once they are used up.
    public func enqueue(_ pages: [Post]...) {
        self.pages.withLock { $0 += pages }
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        let posts = pages.withLock { $0.isEmpty ? [] : $0.removeFirst() }
        return SearchPage(
            posts: posts, newer: request.newer(after: posts), older: request.older(after: posts, hasMore: true))
    }
}
