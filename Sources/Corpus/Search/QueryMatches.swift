import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every corpus post a query matches, newest first, a batch at a time (each an `older` page from the last post of
/// the one before, so posts added meanwhile never shift a batch): what `smashtag export --query` writes. With
/// `since`, the walk stops at the first post older than it.
public struct QueryMatches: AsyncSequence, Sendable {
    public typealias Element = [Post]

    let corpus: any PostCorpus
    let query: SearchQuery
    let since: Date?
    let batchSize: Int

    public init(corpus: any PostCorpus, query: SearchQuery, since: Date? = nil, batchSize: Int = 1_000) {
        (self.corpus, self.query, self.since, self.batchSize) = (corpus, query, since, batchSize)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(matches: self)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let matches: QueryMatches
        var position: SearchRequest.Position? = .newest

        public mutating func next() async throws -> [Post]? {
            guard let current = position else { return nil }
            let page = try await matches.corpus.search(matches.query, current, count: matches.batchSize)
            let posts = matches.since.map { since in page.posts.filter { $0.created >= since } } ?? page.posts
            position =
                page.hasMore && posts.count == page.posts.count
                ? page.posts.last.map { .older(than: $0.id, token: nil) } : nil
            return posts.isEmpty ? nil : posts
        }
    }
}
