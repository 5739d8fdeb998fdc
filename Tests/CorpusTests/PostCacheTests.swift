import Foundation
import Posts
import SQLiteSupport
import Testing
import Twitter

@testable import Corpus

struct PostCacheTests {
    private func generation(_ commits: Int, _ dataVersion: Int = 1) -> DatabaseGeneration.Value {
        DatabaseGeneration.Value(commits: commits, dataVersion: dataVersion)
    }

    private func cached(_ ids: ClosedRange<Int64>) -> [Int64: Post] {
        Dictionary(
            uniqueKeysWithValues: ids.map {
                (
                    $0,
                    Post(
                        id: String($0), created: Date(timeIntervalSince1970: 0), author: Author(handle: "u", name: "U"),
                        text: "t \($0)")
                )
            })
    }

    @Test func tweetsAreServedOnlyAtTheGenerationTheyWereReadAt() {
        let cache = PostCache()
        cache.store(cached(1...3), at: generation(1))
        #expect(cache.posts([1, 2, 9], at: generation(1)).keys.sorted() == [1, 2])
        #expect(cache.posts([1], at: generation(1, 2)).isEmpty)
    }

    @Test func aLoadReadBeforeTheLastChangeDoesNotBringItsGenerationBack() {
        let cache = PostCache()
        cache.store(cached(1...1), at: generation(2))
        cache.store(cached(2...2), at: generation(1))
        #expect(cache.posts([1, 2], at: generation(2)).keys.sorted() == [1])
    }

    @Test func theCacheHoldsAtMostItsLimit() {
        let cache = PostCache(limit: 4)
        for id: Int64 in 1...10 { cache.store(cached(id...id), at: generation(1)) }
        let kept = cache.posts(Array(1...10), at: generation(1)).keys.sorted()
        #expect(kept.count <= 4)
        #expect(kept.contains(10))
    }
}
