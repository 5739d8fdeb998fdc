import Corpus
import DemoCorpus
import Posts
import TestSupport
import Testing
import Twitter

struct CorpusSearchTests {
    /// A small corpus where each operator has tweets that must and must not match.
    static let posts: [Post] = [
        TestPosts.post(1, "Hello #Swift world"),
        TestPosts.post(2, by: "bob", "Learning #swiftlang with @alice"),
        TestPosts.post(3, by: "carol", "Rust and Swift together https://t.co/abc", media: 2),
        TestPosts.post(4, by: "bob", "Café au lait in 東京タワー today"),
        TestPosts.post(5, by: "dave", "Hello #Swift world", repostedBy: "erin"),
        TestPosts.post(6, by: "erin", "the exact phrase is here, @Bob"),
        TestPosts.post(7, by: "carol", "phrase exact is not the same 👩‍💻 coding"),
        TestPosts.post(8, by: "alice", "ÉCOLE in capitals and #RUST"),
    ]

    private static let corpora = FilledCorpora(posts)

    private func ids(_ query: String, in store: TestCorpus, count: Int = 100) async throws -> [String] {
        let page = try await Self.corpora.corpus(store).search(try SearchQuery(parsing: query), .newest, count: count)
        return page.posts.map(\.id)
    }

    @Test(
        arguments: TestCorpus.available,
        [
            ("swift", ["5", "3", "1"]),
            ("SWIFT", ["5", "3", "1"]),
            ("école", ["8"]),
            ("café", ["4"]),
            ("東京", ["4"]),
            ("京東", []),
            ("👩‍💻", ["7"]),
            ("\"exact phrase\"", ["6"]),
            ("\"phrase exact\"", ["7"]),
            ("#swift", ["5", "1"]),
            ("#SWIFT", ["5", "1"]),
            ("#swiftlang", ["2"]),
            ("@alice", ["2"]),
            ("@bob", ["6"]),
            ("@dave", ["5"]),
            ("from:bob", ["4", "2"]),
            ("from:erin", ["6", "5"]),
            ("from:dave", []),
            ("swift OR rust", ["8", "5", "3", "1"]),
            ("hello world -filter:retweets", ["1"]),
            ("filter:retweets", ["5"]),
            ("filter:media", ["3"]),
            ("filter:links", ["3"]),
            ("swift -#swift", ["3"]),
            ("(from:bob OR from:carol) -filter:media", ["7", "4", "2"]),
            ("#swift OR @alice OR from:carol", ["7", "5", "3", "2", "1"]),
            ("example", ["3"]),
            ("t.co", []),
            ("nobody-uses-this", []),
            ("!!!", []),
        ])
    func eachOperatorMeansWhatTwitterMeans(
        in store: TestCorpus, _ example: (query: String, expected: [String])
    )
        async throws
    {
        #expect(try await ids(example.query, in: store) == example.expected)
    }

    @Test(arguments: TestCorpus.available) func aTweetComesBackWhole(in store: TestCorpus) async throws {
        let corpus = try await store.open()
        _ = try await corpus.add(Self.posts)
        for post in Self.posts {
            #expect(try await corpus.post(id: post.id) == post)
        }
    }

    @Test(arguments: TestCorpus.available) func addingTheSameTweetsTwiceAddsNothing(in store: TestCorpus) async throws {
        let corpus = try await store.open()
        let first = try await corpus.add(Self.posts)
        let second = try await corpus.add(Self.posts)
        #expect(first.inserted == Self.posts.count && first.duplicates == 0)
        #expect(second.inserted == 0 && second.duplicates == Self.posts.count)
        #expect(try await corpus.postCount() == Self.posts.count)
        let page = try await corpus.search(try SearchQuery(parsing: "#swift"), .newest, count: 10)
        #expect(page.posts.map(\.id) == ["5", "1"])
    }

    @Test(arguments: TestCorpus.available) func aTweetWhoseIdIsNotANumberIsRejectedWithAReason(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let bad = Post(id: "tag:x", created: TestPosts.post(1, "x").created, author: TestPosts.author("a"), text: "x")
        let added = try await corpus.add([bad])
        #expect(added.rejected == ["the tweet id “tag:x” is not a whole number from 1 to 9223372036854775807"])
    }
}

struct CorpusPagingTests {
    /// 250 tweets; every third mentions #three, and every tweet says "tweet".
    static let posts = (1...250).map { TestPosts.post($0, $0 % 3 == 0 ? "tweet #three" : "tweet") }

    private func source(_ store: TestCorpus) async throws -> CorpusSource {
        let corpus = try await store.open()
        _ = try await corpus.add(Self.posts.shuffled())
        return CorpusSource(corpus: corpus)
    }

    @Test(arguments: TestCorpus.available, ["tweet", "#three", "tweet OR #three", "tweet -#three"])
    func olderPagesFollowWithoutGapsOrDuplicates(in store: TestCorpus, query: String) async throws {
        let source = try await source(store)
        var request: SearchRequest? = SearchRequest(query: query, count: 7)
        var seen: [Int] = []
        while let next = request {
            let page = try await source.search(next)
            #expect(page.posts.count <= 7)
            seen += page.posts.compactMap { Int($0.id) }
            request = page.older
        }
        let expected = Self.posts.filter { matches($0, query) }.compactMap { Int($0.id) }.reversed()
        #expect(seen == Array(expected))
    }

    private func matches(_ post: Post, _ query: String) -> Bool {
        let three = post.text.contains("#three")
        return switch query {
        case "#three": three
        case "tweet -#three": !three
        default: true
        }
    }

    /// The ids of a range, newest first.
    private func ids(_ range: ClosedRange<Int>) -> [String] {
        range.reversed().map(String.init)
    }

    @Test(arguments: TestCorpus.available) func newerPagesBringOnlyWhatCameAfterInOrderWithoutGaps(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.add(Array(Self.posts.prefix(100)))
        let source = CorpusSource(corpus: corpus)
        let first = try await source.search(SearchRequest(query: "tweet", count: 10))
        #expect(first.posts.map(\.id) == ids(91...100))
        _ = try await corpus.add(Array(Self.posts[100..<125]))
        var request = first.newer
        var pages: [[String]] = []
        for _ in 0..<4 {
            let page = try await source.search(request)
            pages.append(page.posts.map(\.id))
            request = page.newer
        }
        let expected: [[String]] = [ids(101...110), ids(111...120), ids(121...125), []]
        #expect(pages == expected)
    }

    @Test(arguments: TestCorpus.available) func tweetsAddedWhilePagingDoNotDisturbOlderPages(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.add(Array(Self.posts.prefix(200)))
        let source = CorpusSource(corpus: corpus)
        let first = try await source.search(SearchRequest(query: "tweet", count: 50))
        _ = try await corpus.add(Array(Self.posts.suffix(50)))
        let second = try await source.search(try #require(first.older))
        #expect(second.posts.map(\.id) == ids(101...150))
    }
}

struct DemoTweeterTests {
    @Test(arguments: TestCorpus.available) func theLiveDemoTweetsOnPopularHashtagsIntoNewer(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        try await Demo.generate(into: corpus, seed: 3, count: 500)
        let source = CorpusSource(corpus: corpus)
        let query = DemoGenerator.popularHashtags.prefix(5).map { "#" + $0 }.joined(separator: " OR ")
        let first = try await source.search(SearchRequest(query: query, count: 10))
        let tweeting = Task { try await DemoTweeter(corpus: corpus, seed: 3, interval: .milliseconds(5)).run() }
        var newer: [Post] = []
        for _ in 0..<200 where newer.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            newer = try await source.search(first.newer).posts
        }
        tweeting.cancel()
        #expect(!newer.isEmpty)
        #expect(Set(newer.map(\.id)).isDisjoint(with: first.posts.map(\.id)))
        #expect(try await Demo.seed(of: corpus) == 3)
    }
}
