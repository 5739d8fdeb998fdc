import Corpus
import DemoCorpus
import Foundation
import Posts
import Testing
import Twitter
import WireJSON

struct TwarcWriterTests {
    /// What `TweetFileReader` reads back from what the writer wrote.
    private func readBack(_ text: String) -> (tweets: [Post], problems: [String]) {
        var reader = TweetFileReader(bytes: Array(text.utf8), name: "demo.jsonl")
        var tweets: [Post] = []
        var problems: [String] = []
        while let event = reader.next() {
            switch event {
            case .post(let tweet): tweets.append(tweet)
            case .malformed(let problem), .note(let problem): problems.append(problem.description)
            case .written: Issue.record("a reader not asked to write its posts gave them written")
            }
        }
        return (tweets, problems)
    }

    private func written(_ tweets: some Sequence<Post>) -> String {
        var output = ""
        TwarcWriter().write(tweets, to: &output)
        return output
    }

    @Test func generatedTweetsComeBackEqual() throws {
        let tweets = Array(DemoGenerator(seed: 2024, count: 2000, end: DemoSample.end))
        #expect(tweets.contains { $0.repostedBy != nil && !$0.media.isEmpty && !$0.mentions.isEmpty })
        #expect(tweets.contains { $0.inReplyToID != nil } && tweets.contains { $0.media.count == 4 })
        #expect(tweets.contains { $0.text.contains("&") && !$0.mentions.isEmpty })
        let output = written(tweets)
        #expect(output.split(separator: "\n").count == 20)
        let read = readBack(output)
        #expect(read.problems.isEmpty, "\(read.problems.prefix(3))")
        expectSame(read.tweets, tweets)
    }

    /// Reports the first few tweets that differ, rather than two whole corpora.
    private func expectSame(_ back: [Post], _ expected: [Post], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(back.count == expected.count, sourceLocation: sourceLocation)
        for (read, original) in zip(back, expected).lazy.filter({ $0 != $1 }).prefix(3) {
            Issue.record("tweet \(original.id) differs:\n\(read)\n\(original)", sourceLocation: sourceLocation)
        }
    }

    @Test func liveTweetsComeBackEqual() {
        var generator = DemoGenerator(seed: 5, count: 10, end: DemoSample.end)
        while generator.next() != nil {}
        let live = (1...150).map { generator.liveTweet(at: DemoSample.end.addingTimeInterval(Double($0) * 2.0005)) }
        expectSame(readBack(written(live)).tweets, live)
    }

    @Test func readsBackFromAFile() throws {
        let tweets = Array(DemoGenerator(seed: 9, count: 250, end: DemoSample.end))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("twarc-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(written(tweets).utf8).write(to: url)
        var reader = try TweetFileReader(path: url.path)
        var back: [Post] = []
        while case .post(let tweet) = reader.next() { back.append(tweet) }
        expectSame(back, tweets)
    }

    @Test func escapesTextAndCountsOffsetsInTheEscapedText() throws {
        let text = "a < b && \"c\" > d\\ 👩‍💻#swift @nasa\ttab https://t.co/abcdefghij"
        let tweet = handMade(
            text: text,
            mentions: [
                mention(.hashtag, "#swift", in: text), mention(.user, "@nasa", in: text),
                mention(
                    .url, "https://t.co/abcdefghij", in: text,
                    expandedURL: "https://www.swift.org/blog/a-very-long-post-name-indeed",
                    display: "swift.org/blog/a-very-long-po…"),
            ])
        let line = String(decoding: TwarcWriter().line(for: [tweet]), as: UTF8.self)
        #expect(
            line.contains(#""text":"a &lt; b &amp;&amp; \"c\" &gt; d\\ 👩‍💻#swift @nasa\ttab https://t.co/abcdefghij""#))
        #expect(line.contains(#"{"start":35,"end":41,"tag":"swift"}"#))
        #expect(line.contains(#""display_url":"swift.org/blog/a-very-long-po…""#))
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        #expect(readBack(line).tweets == [tweet])
    }

    @Test func escapesControlCharacters() {
        let tweet = handMade(text: "bell\u{07} and nul\u{00}", mentions: [])
        let line = String(decoding: TwarcWriter().line(for: [tweet]), as: UTF8.self)
        #expect(line.contains(#"bell\u0007 and nul\u0000"#))
        #expect(readBack(line).tweets == [tweet])
    }

    @Test func retweetsAreWrittenTheAPIsWay() throws {
        let tweets = Array(DemoGenerator(seed: 3, count: 400, end: DemoSample.end))
        let retweet = try #require(tweets.first { $0.repostedBy != nil })
        let line = String(decoding: TwarcWriter().line(for: [retweet]), as: UTF8.self)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let data = try #require((page["data"] as? [[String: Any]])?.first)
        let shown = try #require(data["text"] as? String)
        #expect(shown.hasPrefix("RT @\(retweet.author.handle): "))
        #expect(shown.unicodeScalars.count <= 140 + 30)
        let reference = try #require((data["referenced_tweets"] as? [[String: Any]])?.first)
        #expect(reference["type"] as? String == "retweeted")
        let includes = try #require(page["includes"] as? [String: Any])
        let original = try #require((includes["tweets"] as? [[String: Any]])?.first)
        #expect(original["id"] as? String == reference["id"] as? String)
        #expect(original["id"] as? String != retweet.id)
        #expect(readBack(line).tweets == [retweet])
    }

    @Test func pagesCarryMetaAndTwarcMetadata() throws {
        let tweets = Array(DemoGenerator(seed: 4, count: 100, end: DemoSample.end))
        let line = TwarcWriter().line(for: tweets)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        let meta = try #require(page["meta"] as? [String: Any])
        #expect(meta["result_count"] as? Int == 100)
        #expect(meta["newest_id"] as? String == tweets.last?.id)
        #expect(meta["oldest_id"] as? String == tweets.first?.id)
        #expect(page["__twarc"] != nil)
        let media = try #require((page["includes"] as? [String: Any])?["media"] as? [[String: Any]])
        #expect(media.allSatisfy { ($0["width"] as? Int ?? 0) > 0 && ($0["height"] as? Int ?? 0) > 0 })
    }

    @Test func writesAnyAspectRatioExactly() {
        let media = [
            MediaItem(url: "https://pbs.twimg.com/media/a.jpg", aspectRatio: 16.0 / 9),
            MediaItem(url: "b", aspectRatio: .pi),
        ]
        let tweet = handMade(text: "two pictures", mentions: [], media: media)
        #expect(readBack(String(decoding: TwarcWriter().line(for: [tweet]), as: UTF8.self)).tweets == [tweet])
    }

    private func handMade(text: String, mentions: [Mention], media: [MediaItem] = []) -> Post {
        let user = Author(
            handle: "Quote_\"Me\"", name: "Name with \"quotes\" & <tags>", profileImageURL: "/demo/avatars/x.svg")
        return Post(
            id: "1790000000000000000", created: Date(timeIntervalSince1970: 1_715_000_000), author: user, text: text,
            mentions: mentions, media: media)
    }

    private func mention(
        _ kind: Mention.Kind, _ keyword: String, in text: String, expandedURL: String? = nil, display: String? = nil
    ) -> Mention {
        let scalars = Array(text.unicodeScalars)
        let target = Array(keyword.unicodeScalars)
        let start = (0...(scalars.count - target.count)).first { Array(scalars[$0..<$0 + target.count]) == target } ?? 0
        return Mention(
            kind: kind, keyword: keyword, range: start..<start + target.count, expandedURL: expandedURL,
            display: display)
    }
}
