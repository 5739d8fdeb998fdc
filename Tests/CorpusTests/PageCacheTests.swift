import Posts
import SQLiteSupport
import Testing

@testable import Corpus

struct PageCacheTests {
    let cache = PageCache(limit: 2)

    private func page(_ query: String) -> (SearchRequest, SearchPage) {
        let request = SearchRequest(query: query)
        return (request, SearchPage(posts: [], newer: request, older: nil))
    }

    private func generation(_ commits: Int, _ dataVersion: Int = 1) -> CorpusGeneration {
        CorpusGeneration(value: DatabaseGeneration.Value(commits: commits, dataVersion: dataVersion))
    }

    @Test func thePageIsServedOnlyAtTheGenerationItWasReadAt() {
        let (request, page) = page("#a")
        cache.store(page, for: request, at: generation(1))
        #expect(cache.page(for: request, at: generation(1))?.newer == request)
        #expect(cache.page(for: request, at: generation(2)) == nil)
        #expect(cache.page(for: request, at: generation(1, 2)) == nil)
    }

    @Test func theLeastRecentlyUsedPageGoesFirst() {
        let (a, b, c) = (page("#a"), page("#b"), page("#c"))
        cache.store(a.1, for: a.0, at: generation(1))
        cache.store(b.1, for: b.0, at: generation(1))
        _ = cache.page(for: a.0, at: generation(1))
        cache.store(c.1, for: c.0, at: generation(1))
        #expect(cache.page(for: a.0, at: generation(1)) != nil)
        #expect(cache.page(for: b.0, at: generation(1)) == nil)
        #expect(cache.page(for: c.0, at: generation(1)) != nil)
    }

    @Test func aPageReadBeforeTheLastChangeDoesNotBringItsGenerationBack() {
        let (a, b) = (page("#a"), page("#b"))
        cache.store(a.1, for: a.0, at: generation(2))
        cache.store(b.1, for: b.0, at: generation(1))
        #expect(cache.page(for: a.0, at: generation(2)) != nil)
        #expect(cache.page(for: b.0, at: generation(1)) == nil)
    }
}
