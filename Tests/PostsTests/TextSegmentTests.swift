import Foundation
import Testing
import Posts

struct TextSegmentTests {
    private let tweet = Post(
        id: "1", created: Date(timeIntervalSince1970: 0), user: Author(screenName: "a", name: "A"),
        text: "🇩🇿 #hirak & @NASA https://t.co/x",
        mentions: [
            Mention(kind: .hashtag, keyword: "#hirak", range: 3..<9),
            Mention(kind: .user, keyword: "@NASA", range: 12..<17),
            Mention(kind: .url, keyword: "https://t.co/x", range: 18..<32, expandedURL: "https://example.com"),
        ]
    )

    @Test func segmentsJoinBackToTheText() {
        #expect(tweet.segments.map(\.text).joined() == tweet.text)
    }

    @Test func eachMentionIsOneSegmentWithItsKeyword() {
        let mentions = tweet.segments.compactMap(\.mention)
        #expect(mentions == tweet.mentions)
        #expect(tweet.segments.filter { $0.mention != nil }.map(\.text) == ["#hirak", "@NASA", "https://t.co/x"])
    }

    @Test func plainTextIsOneSegment() {
        let plain = Post(id: "2", created: .now, user: .unknown, text: "just words")
        #expect(plain.segments.map(\.text) == ["just words"])
        #expect(plain.segments.allSatisfy { $0.mention == nil })
    }
}
