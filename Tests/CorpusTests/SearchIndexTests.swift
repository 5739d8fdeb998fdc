import Corpus
import Foundation
import GRDB
import Posts
import TestSupport
import Testing

@testable import Corpus

/// What the SQLite corpus's one search index must never confuse (words, pairs of words and operator terms are tokens
/// of one FTS5 table): asked of both corpora, which answer alike.
struct SearchIndexTests {
    static let posts: [Post] = [
        TestPosts.post(1, by: "ana_b", "one two three four #swift_ui"),
        TestPosts.post(2, by: "ana.bsky.social", "one two x two three #swift filter retweets from"),
        TestPosts.post(3, by: "bo", "three two one @ana_b #Ünïcode_tag", media: 1),
        TestPosts.post(4, by: "cy", "two three one two", repostedBy: "ana_b"),
        TestPosts.post(5, by: "ana_b@example.social", "ana b swift ui media"),
    ]

    private static let corpora = FilledCorpora(posts)

    private func ids(_ query: String, in store: TestCorpus) async throws -> [String] {
        let page = try await Self.corpora.corpus(store).search(try SearchQuery(parsing: query), .newest, count: 100)
        return page.posts.map(\.id)
    }

    @Test(
        arguments: TestCorpus.available,
        [
            ("\"one two three\"", ["1"]),
            ("\"two three\"", ["4", "2", "1"]),
            ("\"two three one\"", ["4"]),
            ("\"one two three four\"", ["1"]),
            ("\"three two one\"", ["3"]),
            ("\"one two x two three\"", ["2"]),
            ("\"two one\"", ["3"]),
            ("\"one three\"", []),
            ("one two three", ["4", "3", "2", "1"]),
            ("#swift", ["2"]),
            ("#swift_ui", ["1"]),
            ("#SWIFT_UI", ["1"]),
            ("#ünïcode_tag", ["3"]),
            ("swift", ["5", "2", "1"]),
            ("from:ana_b", ["4", "1"]),
            ("from:ana.bsky.social", ["2"]),
            ("from:ana_b@example.social", ["5"]),
            ("@ana_b", ["3"]),
            ("filter", ["2"]),
            ("retweets", ["2"]),
            ("from", ["2"]),
            ("media", ["5"]),
            ("filter:media", ["3"]),
            ("filter:retweets", ["4"]),
            ("\"two three\" -from:ana_b", ["2"]),
            ("(#swift OR #swift_ui) -\"x two\"", ["1"]),
            ("\"one two\" OR from:bo", ["4", "3", "2", "1"]),
        ])
    func wordsPairsAndTermsAreNeverConfused(
        in store: TestCorpus, _ example: (query: String, expected: [String])
    )
        async throws
    {
        #expect(try await ids(example.query, in: store) == example.expected)
    }

    @Test func aTermIsOneTokenWhateverItsCharacters() {
        for key in ["#swift_ui", "from:did:plc:abc", "@ana.b", "#ünï", "from:a\u{E002}b", "#a b"] {
            let token = SearchTokens.term(key)
            #expect(token.unicodeScalars.first == SearchTokens.termMark)
            #expect(
                !token.unicodeScalars.contains {
                    $0.isASCII && !($0.properties.isAlphabetic || ("0"..."9").contains($0))
                })
        }
        #expect(SearchTokens.term("from:a\u{E002}3a") != SearchTokens.term("from:a::"))
        #expect(SearchTokens.term("#a_b") != SearchTokens.term("#a-b"))
    }

    @Test func aRemovedPostIsFoundByNothing() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add(Self.posts)
        #expect(try await corpus.delete(ids: ["1", "3"]) == 2)
        for query in ["one", "\"two three\"", "#swift_ui", "from:ana_b", "@ana_b", "filter:media", "#ünïcode_tag"] {
            let found = try await corpus.search(try SearchQuery(parsing: query), .newest, count: 10).posts.map(\.id)
            #expect(!found.contains("1") && !found.contains("3"), "\(query)")
        }
        let tokens = try await corpus.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM searchIndex WHERE searchIndex MATCH ?",
                arguments: [
                    SearchTokens.phrase(["one", "two", "three", "four"])
                ])
        }
        #expect(tokens == 0)
    }

    /// Posts that arrive one at a time (the living demo) leave the index in few segments, and every one still found.
    @Test func postsAddedOneAtATimeLeaveFewSegments() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let count = 3 * SegmentMerges.every
        for id in 1...count { _ = try await corpus.add([TestPosts.post(id, by: "ana", "word\(id % 7) #tag")]) }
        let segments = try await corpus.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(DISTINCT segid) FROM searchIndex_idx")
        }
        // FTS5's own merging alone leaves fifteen.
        #expect(try #require(segments) <= 4)
        let found = try await corpus.search(try SearchQuery(parsing: "#tag"), .newest, count: count + 1)
        #expect(found.posts.count == count)
    }
}
