import Corpus
import Testing
import Posts
import Twitter
import DemoCorpus

struct CorpusSearchTests {
    /// A small corpus where each operator has tweets that must and must not match.
    static let tweets: [Post] = [
        TestTweets.tweet(1, "Hello #Swift world"),
        TestTweets.tweet(2, by: "bob", "Learning #swiftlang with @alice"),
        TestTweets.tweet(3, by: "carol", "Rust and Swift together https://t.co/abc", media: 2),
        TestTweets.tweet(4, by: "bob", "Café au lait in 東京タワー today"),
        TestTweets.tweet(5, by: "dave", "Hello #Swift world", repostedBy: "erin"),
        TestTweets.tweet(6, by: "erin", "the exact phrase is here, @Bob"),
        TestTweets.tweet(7, by: "carol", "phrase exact is not the same 👩‍💻 coding"),
        TestTweets.tweet(8, by: "alice", "ÉCOLE in capitals and #RUST"),
    ]

    private func ids(_ query: String, count: Int = 100) async throws -> [String] {
        let corpus = try PostCorpus.inMemory()
        _ = try await corpus.add(Self.tweets)
        let page = try await corpus.search(try SearchQuery(parsing: query), .newest, count: count)
        return page.tweets.map(\.id)
    }

    @Test(arguments: [
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
    func eachOperatorMeansWhatTwitterMeans(query: String, expected: [String]) async throws {
        #expect(try await ids(query) == expected)
    }

    @Test func aTweetComesBackWhole() async throws {
        let corpus = try PostCorpus.inMemory()
        _ = try await corpus.add(Self.tweets)
        for tweet in Self.tweets {
            #expect(try await corpus.tweet(id: tweet.id) == tweet)
        }
    }

    @Test func addingTheSameTweetsTwiceAddsNothing() async throws {
        let corpus = try PostCorpus.inMemory()
        let first = try await corpus.add(Self.tweets)
        let second = try await corpus.add(Self.tweets)
        #expect(first.inserted == Self.tweets.count && first.duplicates == 0)
        #expect(second.inserted == 0 && second.duplicates == Self.tweets.count)
        #expect(try await corpus.tweetCount() == Self.tweets.count)
        #expect(try await ids("#swift") == ["5", "1"])
    }

    @Test func aTweetWhoseIdIsNotANumberIsRejectedWithAReason() async throws {
        let corpus = try PostCorpus.inMemory()
        let bad = Post(id: "tag:x", created: TestTweets.tweet(1, "x").created, user: TestTweets.user("a"), text: "x")
        let added = try await corpus.add([bad])
        #expect(added.rejected == ["the tweet id “tag:x” is not a whole number from 1 to 9223372036854775807"])
    }
}

struct CorpusPagingTests {
    /// 250 tweets; every third mentions #three, and every tweet says "tweet".
    static let tweets = (1...250).map { TestTweets.tweet($0, $0 % 3 == 0 ? "tweet #three" : "tweet") }

    private func source() async throws -> CorpusSource {
        let corpus = try PostCorpus.inMemory()
        _ = try await corpus.add(Self.tweets.shuffled())
        return CorpusSource(corpus: corpus)
    }

    @Test(arguments: ["tweet", "#three", "tweet OR #three", "tweet -#three"])
    func olderPagesFollowWithoutGapsOrDuplicates(query: String) async throws {
        let source = try await source()
        var request: SearchRequest? = SearchRequest(query: query, count: 7)
        var seen: [Int] = []
        while let next = request {
            let page = try await source.search(next)
            #expect(page.tweets.count <= 7)
            seen += page.tweets.compactMap { Int($0.id) }
            request = page.older
        }
        let expected = Self.tweets.filter { matches($0, query) }.compactMap { Int($0.id) }.reversed()
        #expect(seen == Array(expected))
    }

    private func matches(_ tweet: Post, _ query: String) -> Bool {
        let three = tweet.text.contains("#three")
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

    @Test func newerPagesBringOnlyWhatCameAfterInOrderWithoutGaps() async throws {
        let corpus = try PostCorpus.inMemory()
        _ = try await corpus.add(Array(Self.tweets.prefix(100)))
        let source = CorpusSource(corpus: corpus)
        let first = try await source.search(SearchRequest(query: "tweet", count: 10))
        #expect(first.tweets.map(\.id) == ids(91...100))
        _ = try await corpus.add(Array(Self.tweets[100..<125]))
        var request = first.newer
        var pages: [[String]] = []
        for _ in 0..<4 {
            let page = try await source.search(request)
            pages.append(page.tweets.map(\.id))
            request = page.newer
        }
        let expected: [[String]] = [ids(101...110), ids(111...120), ids(121...125), []]
        #expect(pages == expected)
    }

    @Test func tweetsAddedWhilePagingDoNotDisturbOlderPages() async throws {
        let corpus = try PostCorpus.inMemory()
        _ = try await corpus.add(Array(Self.tweets.prefix(200)))
        let source = CorpusSource(corpus: corpus)
        let first = try await source.search(SearchRequest(query: "tweet", count: 50))
        _ = try await corpus.add(Array(Self.tweets.suffix(50)))
        let second = try await source.search(try #require(first.older))
        #expect(second.tweets.map(\.id) == ids(101...150))
    }
}

struct DemoTweeterTests {
    @Test func theLiveDemoTweetsOnPopularHashtagsIntoNewer() async throws {
        let corpus = try PostCorpus.inMemory()
        try await Demo.generate(into: corpus, seed: 3, count: 500)
        let source = CorpusSource(corpus: corpus)
        let query = DemoGenerator.popularHashtags.prefix(5).map { "#" + $0 }.joined(separator: " OR ")
        let first = try await source.search(SearchRequest(query: query, count: 10))
        let tweeting = Task { try await DemoTweeter(corpus: corpus, seed: 3, interval: .milliseconds(5)).run() }
        var newer: [Post] = []
        for _ in 0..<200 where newer.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            newer = try await source.search(first.newer).tweets
        }
        tweeting.cancel()
        #expect(!newer.isEmpty)
        #expect(Set(newer.map(\.id)).isDisjoint(with: first.tweets.map(\.id)))
        #expect(try await Demo.seed(of: corpus) == 3)
    }
}
