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
        let older = request.older(after: page.tweets, hasMore: page.hasMore)
        return SearchPage(tweets: page.tweets, newer: request.newer(after: page.tweets), older: older)
    }
}
