import Posts
import SQLiteSupport
import Twitter

/// The local corpus as a post source: Smashtag's offline default. Pages are cached until the corpus changes.
public struct CorpusSource: PostSource {
    public let corpus: PostCorpus
    private let pages = PageCache()

    public init(corpus: PostCorpus) {
        self.corpus = corpus
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        let generation = try corpus.generation.current()
        if let page = pages.page(for: request, at: generation) { return page }
        let page = try await searchCorpus(request, at: generation)
        pages.store(page, for: request, at: generation)
        return page
    }

    private func searchCorpus(
        _ request: SearchRequest, at generation: DatabaseGeneration.Value
    ) async throws -> SearchPage {
        let query = try SearchQuery(parsing: request.query)
        let page = try await corpus.search(query, request.position, count: request.count, at: generation)
        let older = request.older(after: page.posts, hasMore: page.hasMore)
        return SearchPage(posts: page.posts, newer: request.newer(after: page.posts), older: older)
    }
}
