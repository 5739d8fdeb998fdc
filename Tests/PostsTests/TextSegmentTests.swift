import Foundation
import Posts
import Testing

struct TextSegmentTests {
    private let post = Post(
        id: "1", created: Date(timeIntervalSince1970: 0), author: Author(handle: "a", name: "A"),
        text: "🇩🇿 #hirak & @NASA https://t.co/x",
        mentions: [
            Mention(kind: .hashtag, keyword: "#hirak", range: 3..<9),
            Mention(kind: .user, keyword: "@NASA", range: 12..<17),
            Mention(kind: .url, keyword: "https://t.co/x", range: 18..<32, expandedURL: "https://example.com"),
        ]
    )

    @Test func segmentsJoinBackToTheText() {
        #expect(post.segments.map(\.text).joined() == post.text)
    }

    @Test func eachMentionIsOneSegmentWithItsKeyword() {
        let mentions = post.segments.compactMap(\.mention)
        #expect(mentions == post.mentions)
        #expect(post.segments.filter { $0.mention != nil }.map(\.text) == ["#hirak", "@NASA", "https://t.co/x"])
    }

    @Test func plainTextIsOneSegment() {
        let plain = Post(id: "2", created: .now, author: .unknown, text: "just words")
        #expect(plain.segments.map(\.text) == ["just words"])
        #expect(plain.segments.allSatisfy { $0.mention == nil })
    }
}
