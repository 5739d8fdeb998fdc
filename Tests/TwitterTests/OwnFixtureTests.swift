import Foundation
import Posts
import Testing
import Twitter
import WireJSON

/// Our hand-made fixtures, one per format and edge case, against `expected.json`, which
/// `Fixtures/make_expected.py` computes independently in Python from the same rules.
struct OwnFixtureTests {
    struct Expected: Decodable {
        let tweets: [ExpectedTweet]
        let errorLines: [Int]
    }

    struct ExpectedTweet: Decodable {
        let id: String
        let created: String
        let user: Author
        let text: String
        let mentions: [Mention]
        let media: [MediaItem]
        let repostedBy: Author?
        let displayStart: Int
        let language: String?

        private enum CodingKeys: String, CodingKey {
            case id, created, user, text, mentions, media, displayStart, language
            case repostedBy = "retweetedBy"
        }
    }

    static let expected: [String: Expected] = {
        guard let data = try? Data(contentsOf: OwnFixtures.root.appendingPathComponent("expected.json")) else {
            return [:]
        }
        return (try? JSONDecoder().decode([String: Expected].self, from: data)) ?? [:]
    }()

    @Test func everyFixtureHasAnExpectation() {
        #expect(Self.expected.count >= 14)
    }

    @Test(arguments: expected.keys.sorted())
    func decodesAsExpected(file: String) throws {
        let expected = try #require(Self.expected[file])
        var reader = try TweetFileReader(path: OwnFixtures.path(file))
        var tweets: [Post] = []
        var errorLines: [Int] = []
        while let event = reader.next() {
            switch event {
            case .post(let tweet): tweets.append(tweet)
            case .malformed(let problem): errorLines.append(problem.line ?? 0)
            case .note: break
            case .written: Issue.record("a reader not asked to write its posts gave them written")
            }
        }
        #expect(errorLines == expected.errorLines)
        try #require(tweets.count == expected.tweets.count)
        for (tweet, want) in zip(tweets, expected.tweets) {
            compare(tweet, want)
        }
    }

    private func compare(_ tweet: Post, _ want: ExpectedTweet) {
        #expect(tweet.id == want.id)
        #expect(tweet.created.formatted(.iso8601) == want.created, "tweet \(want.id)")
        #expect(tweet.author == want.user, "tweet \(want.id)")
        #expect(tweet.text == want.text, "tweet \(want.id)")
        #expect(tweet.mentions == want.mentions, "tweet \(want.id)")
        #expect(tweet.repostedBy == want.repostedBy, "tweet \(want.id)")
        #expect(tweet.displayStart == want.displayStart, "tweet \(want.id)")
        #expect(tweet.language == want.language, "tweet \(want.id)")
        #expect(tweet.media.map(\.url) == want.media.map(\.url), "tweet \(want.id)")
        #expect(tweet.media.map(\.kind) == want.media.map(\.kind), "tweet \(want.id)")
        for (item, wantItem) in zip(tweet.media, want.media) {
            #expect(abs(item.aspectRatio - wantItem.aspectRatio) < 1e-9, "tweet \(want.id)")
        }
    }
}

struct TweetJSONTests {
    @Test func theHandWrittenJSONDecodesBackEqual() throws {
        for file in ["v1-search.json", "v2-search.json", "twarc2-pages.jsonl", "v1-clamped.json"] {
            for case .post(let tweet) in try TweetFileReader(path: OwnFixtures.path(file)) {
                let decoded = try Post(jsonText: tweet.storedJSON)
                #expect(decoded == tweet)
            }
        }
    }
}

/// A quote tweet carries the tweet it quotes when the data includes it, so the row can show it.
struct QuotedTweetTests {
    @Test func aV1QuoteTweetCarriesTheQuotedStatus() throws {
        let tweets = try TweetFileReader(path: OwnFixtures.path("v1-concatenated.json")).compactMap { event -> Post? in
            if case .post(let tweet) = event { tweet } else { nil }
        }
        let quoting = try #require(tweets.first { $0.quotedID == "1480464428037074948" })
        #expect(quoting.quoted?.id == "1480464428037074948" && quoting.quoted?.text.isEmpty == false)
        #expect(quoting.quoted?.quoted == nil)
    }

    @Test func aV2QuoteTweetCarriesTheIncludedTweet() throws {
        let page = """
            {"data":[{"id":"1900000000000000002","text":"So true \
            https://t.co/Qu0te","author_id":"1","created_at":"2025-01-01T00:00:01.000Z",\
            "referenced_tweets":[{"type":"quoted","id":"1900000000000000001"}],\
            "entities":{"urls":[{"start":8,"end":26,"url":"https://t.co/Qu0te",\
            "expanded_url":"https://twitter.com/ana/status/1900000000000000001",\
            "display_url":"twitter.com/ana/status/1…"}]}}],\
            "includes":{"users":[{"id":"1","username":"cy","name":"Cy"},{"id":"2","username":"ana","name":"Ana"}],\
            "tweets":[{"id":"1900000000000000001","text":"the original \
            #idea","author_id":"2","created_at":"2025-01-01T00:00:00.000Z",\
            "entities":{"hashtags":[{"start":13,"end":18,"tag":"idea"}]}}]},"meta":{"result_count":1}}
            """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quote-\(UUID().uuidString).json")
        try Data(page.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let tweets = try TweetFileReader(path: url.path).compactMap { event -> Post? in
            if case .post(let tweet) = event { tweet } else { nil }
        }
        let quoting = try #require(tweets.first)
        #expect(quoting.quoted?.author.handle == "ana" && quoting.quoted?.mentions.first?.keyword == "#idea")
    }
}
