import Testing

@testable import Posts
@testable import Twitter

/// Offsets count the code points of the text as delivered, HTML-escaped: slice first, then unescape.
struct ExactTextTests {
    private func exact(
        _ text: String, _ entities: [(Mention.Kind, Int, Int, String)], media: [String] = []
    ) -> ExactText {
        ExactText(
            WireText(
                escapedText: text,
                entities: entities.compactMap { WireEntity(kind: $0.0, start: $0.1, end: $0.2, token: $0.3) },
                mediaLinks: media
            ))
    }

    private func keywords(_ result: ExactText) -> [String] {
        result.mentions.map { "\($0.keyword)@\($0.range.lowerBound)" }
    }

    @Test func aFlagBeforeAHashtagCountsAsTwoCodePoints() {
        let result = exact("Photo du jour 🇩🇿\n\n#hirak", [(.hashtag, 18, 24, "#hirak")])
        #expect(keywords(result) == ["#hirak@18"])
    }

    @Test func anAstralHashtagIsOneCodePointPerCharacter() {
        let result = exact("𝕏 says #𠀡 ok", [(.hashtag, 7, 9, "#𠀡")])
        #expect(keywords(result) == ["#𠀡@7"])
    }

    @Test func escapesBeforeAnEntityShiftItsUnescapedOffset() {
        let result = exact("Q&amp;A &lt;3 #swift", [(.hashtag, 14, 20, "#swift")])
        #expect(result.text == "Q&A <3 #swift")
        #expect(keywords(result) == ["#swift@7"])
    }

    @Test func aMentionKeepsTheCaseOfTheText() {
        #expect(keywords(exact("hi @NASA!", [(.user, 3, 8, "@nasa")])) == ["@NASA@3"])
    }

    @Test func aFullWidthHashIsAHashtag() {
        #expect(keywords(exact("見て＃タグ", [(.hashtag, 2, 5, "#タグ")])) == ["＃タグ@2"])
    }

    @Test func aClampedEntityIsDroppedWhenItsTokenIsNowhere() {
        let text = "RT @someone: " + String(repeating: "x", count: 126) + "…"
        let result = exact(text, [(.hashtag, 139, 140, "#cutoff"), (.user, 3, 11, "@someone")])
        #expect(keywords(result) == ["@someone@3"])
    }

    @Test func aMisplacedEntityMovesToTheNearestWholeToken() {
        let result = exact("@ab and @abc and @ab", [(.user, 10, 13, "@ab")])
        #expect(keywords(result) == ["@ab@17"])
    }

    @Test func anEntityCoveringOtherTextIsDropped() {
        let result = exact("This Post violated the X Rules. Learn more.", [(.url, 32, 42, "https://t.co/abc")])
        #expect(result.mentions.isEmpty)
    }

    @Test func theTrailingMediaLinkIsRemoved() {
        let result = exact(
            "Look &amp; see #pics https://t.co/media", [(.hashtag, 15, 20, "#pics")], media: ["https://t.co/media"])
        #expect(result.text == "Look & see #pics")
        #expect(keywords(result) == ["#pics@11"])
    }

    @Test func overlappingEntitiesKeepTheFirst() {
        let result = exact(
            "https://t.co/x #tag",
            [(.url, 0, 14, "https://t.co/x"), (.url, 0, 14, "https://t.co/x"), (.hashtag, 15, 19, "#tag")])
        #expect(keywords(result) == ["https://t.co/x@0", "#tag@15"])
    }
}
