import Twitter

/// The local corpus as a tweet source: Smashtag's offline default.
public struct CorpusSource: TweetSource {
    public let corpus: TweetCorpus

    public init(corpus: TweetCorpus) {
        self.corpus = corpus
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        let query = try SearchQuery(parsing: request.query)
        let page = try await corpus.search(query, request.position, count: request.count)
        return SearchPage(tweets: page.tweets, newer: newer(after: page, for: request), older: older(after: page, for: request))
    }

    private func newer(after page: CorpusPage, for request: SearchRequest) -> SearchRequest {
        guard let newest = page.tweets.first else { return request }
        return request.at(.newer(than: newest.id))
    }

    /// Only a page read downwards knows what lies below it.
    private func older(after page: CorpusPage, for request: SearchRequest) -> SearchRequest? {
        if case .newer = request.position { return nil }
        guard page.hasMore, let oldest = page.tweets.last else { return nil }
        return request.at(.older(than: oldest.id, token: nil))
    }
}
