import Testing

@testable import Mastodon
@testable import Posts
@testable import WireJSON

/// Mastodon's HTML as text and mentions: every mention's keyword is exactly its slice of the text.
struct StatusContentTests {
    private func content(_ html: String, mentions: [JSONValue] = []) -> StatusContent {
        let content = StatusContent(html: html, accounts: MentionedAccounts(mentions))
        let scalars = Array(content.text.unicodeScalars)
        for mention in content.mentions {
            #expect(String(String.UnicodeScalarView(scalars[mention.range])) == mention.keyword, "\(html)")
        }
        return content
    }

    @Test func paragraphsAndLineBreaks() {
        let read = content("<p>one<br />two</p><p>three</p><p></p>")
        #expect(read.text == "one\ntwo\n\nthree")
    }

    @Test func charactersReferencesAreDecoded() {
        let read = content(
            "<p>&quot;fish &amp; chips&quot; &lt;3 it&#39;s &#x1F600; &#128512; &nbsp;&copy; &bogus; &amp</p>")
        #expect(read.text == "\"fish & chips\" <3 it's 😀 😀 \u{A0}© &bogus; &")
    }

    @Test func hashtagsAsWritten() {
        let read = content(
            #"""
            <p>🇩🇿 <a href="https://example.social/tags/Hirak" class="mention hashtag" \#
            rel="tag">#<span>Hirak</span></a></p>
            """#
        )
        #expect(read.text == "🇩🇿 #Hirak")
        #expect(read.mentions == [Mention(kind: .hashtag, keyword: "#Hirak", range: 3..<9)])
    }

    @Test func usersWithTheirFullAddress() {
        let mentions: [JSONValue] = [
            account(acct: "bob", username: "bob", url: "https://home.example/@bob"),
            account(acct: "carol@far.example", username: "carol", url: "https://far.example/@carol"),
        ]
        let html =
            #"""
            <p><span class="h-card" translate="no"><a href="https://home.example/@bob" class="u-url \#
            mention">@<span>bob</span></a></span> and <span class="h-card"><a href="https://far.example/@carol" \#
            class="u-url mention">@<span>carol</span></a></span> and <span class="h-card"><a \#
            href="https://else.example/users/dan" class="u-url mention">@<span>dan</span></a></span></p>
            """#
        let read = content(html, mentions: mentions)
        #expect(read.text == "@bob@home.example and @carol@far.example and @dan@else.example")
        #expect(read.mentions.map(\.keyword) == ["@bob@home.example", "@carol@far.example", "@dan@else.example"])
        #expect(read.mentions.allSatisfy { $0.kind == .user })
    }

    @Test func linksShowTheirVisibleTextAndOpenTheirAddress() {
        let html =
            #"""
            <p>read <a href="https://www.theguardian.com/money/2019/dec/07/long" rel="nofollow noopener \#
            noreferrer" target="_blank"><span class="invisible">https://www.</span><span \#
            class="ellipsis">theguardian.com/money/2019/dec</span><span class="invisible">/07/long</span></a> and \#
            <a href="http://example.org/"><span class="invisible">http://</span><span \#
            class="">example.org/</span><span class="invisible"></span></a></p>
            """#
        let read = content(html)
        #expect(read.text == "read theguardian.com/money/2019/dec… and example.org/")
        #expect(read.mentions.map(\.keyword) == ["theguardian.com/money/2019/dec…", "example.org/"])
        #expect(
            read.mentions.map(\.expandedURL) == [
                "https://www.theguardian.com/money/2019/dec/07/long", "http://example.org/",
            ])
        #expect(read.mentions.allSatisfy { $0.kind == .url })
    }

    @Test func anchorsToOtherSchemesAreText() {
        let read = content(#"<p><a href="javascript:alert(1)">click</a> <a href="mailto:a@b.c">mail</a></p>"#)
        #expect(read.text == "click mail")
        #expect(read.mentions.isEmpty)
    }

    @Test func markupThatShowsNothingIsSkipped() {
        let read = content(
            "<p>a <!-- hidden --><script>alert('<p>x</p>')</script><style>p{}</style>b<!DOCTYPE html></p>")
        #expect(read.text == "a b")
    }

    @Test func lessThanThatOpensNoTagIsText() {
        #expect(content("<p>1 < 2 and 3 <= 4 </ p></p>").text == "1 < 2 and 3 <= 4")
        #expect(content("<p>ends inside <a href=\"x").text == "ends inside")
    }

    @Test func attributesInEveryForm() {
        var tokens = HTMLTokenizer(#"<A HREF=https://x.example/?a=1&copy=2 class='mention  hashtag' data-x disabled>"#)
        guard case .startTag(let tag)? = tokens.next() else {
            Issue.record("no tag")
            return
        }
        #expect(tag.name == "a")
        #expect(tag.attributes["href"] == "https://x.example/?a=1&copy=2")
        #expect(tag.classes == ["mention", "hashtag"])
        #expect(tag.attributes["disabled"] == "")
    }

    @Test func customEmojiAndMarkupLineBreaks() {
        let read = content("<p>hello :blobcat:\nworld</p><ul><li>one</li><li>two</li></ul><pre>a\n  b</pre>")
        #expect(read.text == "hello :blobcat: world\n\none\ntwo\na\n  b")
    }

    private func account(acct: String, username: String, url: String) -> JSONValue {
        var object = JSONObject()
        object.append("acct", .string(acct))
        object.append("username", .string(username))
        object.append("url", .string(url))
        return .object(object)
    }
}
