import Posts
import SQLiteSupport

/// The corpus as a post source: Smashtag's offline default. Pages are cached until the corpus changes, where the
/// corpus can tell (SQLite).
public struct CorpusSource: PostSource {
    public let corpus: any PostCorpus
    private let pages = PageCache()

    public init(corpus: any PostCorpus) {
        self.corpus = corpus
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        guard let generation = try corpus.pageGeneration() else { return try await searchCorpus(request) }
        if let page = pages.page(for: request, at: generation) { return page }
        let page = try await searchCorpus(request)
        pages.store(page, for: request, at: generation)
        return page
    }

    private func searchCorpus(_ request: SearchRequest) async throws -> SearchPage {
        let query = try SearchQuery(parsing: request.query)
        let page = try await corpus.search(query, request.position, count: request.count)
        let older = request.older(after: page.posts, hasMore: page.hasMore)
        return SearchPage(posts: page.posts, newer: request.newer(after: page.posts), older: older)
    }
}

/// A query the corpus cannot answer, in one sentence.
public enum CorpusQueryError: Error, Sendable, ExplainedError {
    /// The corpus keeps each reply by the post it answers, not by the conversation it belongs to.
    case conversation

    /// Refuses what no corpus can answer, before either searches: every search of a corpus (a source's page, an
    /// export's walk) comes through here.
    static func check(_ query: SearchQuery) throws(CorpusQueryError) {
        if query.namesConversation { throw .conversation }
    }

    public var description: String {
        switch self {
        case .conversation:
            """
            The corpus cannot search conversation:ID — it keeps each reply by the post it answers: open the post's \
            thread (Show thread, smashtag thread) to read its conversation.
            """
        }
    }
}
