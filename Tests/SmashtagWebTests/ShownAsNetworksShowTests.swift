import AppStore
import Foundation
import Posts
import TestSupport
import Testing

@testable import SmashtagWeb

/// Posts look as their networks show them: links by their display form, a reply's leading names as "Replying to",
/// sensitive media blurred, images of unknown proportions sized when they load.
@Suite struct ShownAsNetworksShowTests {
    static let replyText = "@ana @bo see https://t.co/AbCdEf123 #swift"
    static let reply = Post(
        id: "1900000000000000100", created: Date(timeIntervalSince1970: 1_740_830_400),
        author: Author(handle: "cy", name: "Cy"), text: replyText,
        mentions: [
            Mention(kind: .user, keyword: "@ana", range: 0..<4), Mention(kind: .user, keyword: "@bo", range: 5..<8),
            Mention(
                kind: .url, keyword: "https://t.co/AbCdEf123", range: 13..<35,
                expandedURL: "https://example.com/a/long/path", display: "example.com/a/long…"),
            Mention(kind: .hashtag, keyword: "#swift", range: 36..<42),
        ],
        media: [
            MediaItem(url: "https://img.example/known.jpg", aspectRatio: 2),
            MediaItem(url: "https://img.example/unknown.jpg", aspectRatio: 0),
        ],
        inReplyToID: "1900000000000000099", displayStart: 9, isSensitive: true
    )

    private func row(_ post: Post) -> String {
        var html = HTMLWriter(capacity: 4096)
        PostRow(post, links: PostLinks(tab: .search, back: nil)).write(to: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    private func page(_ view: some PageView) -> String {
        String(decoding: view.rendered().bytes, as: UTF8.self)
    }

    @Test func aReplysLeadingNamesAreShownAsReplyingToAndItsLinkByItsDisplayForm() {
        let html = row(Self.reply)
        #expect(
            html.contains(
                #"""
                <p class="dim small replying">Replying to <span class="m m-user">@ana</span> <span class="m \#
                m-user">@bo</span></p>
                """#
            ))
        #expect(
            html.contains(
                #"""
                <p class="text">see <span class="m m-url">example.com/a/long…</span> <span class="m m-hashtag"
                """#
            ))
        #expect(!html.contains("t.co"))
    }

    @Test func aQuoteTweetsTrailingLinkToTheQuoteIsHiddenWhenTheQuoteIsShown() {
        let text = "So true https://t.co/Qu0te"
        let link = Mention(
            kind: .url, keyword: "https://t.co/Qu0te", range: 8..<26, expandedURL: "https://twitter.com/ana/status/42",
            display: "twitter.com/ana/status/42")
        let quoted = Post(id: "42", created: .now, author: Author(handle: "ana", name: "Ana"), text: "the original")
        let quoting = Post(
            id: "43", created: .now, author: Author(handle: "cy", name: "Cy"), text: text, mentions: [link],
            quoted: quoted)
        #expect(quoting.shownSegments.map(\.text) == ["So true"])
        #expect(row(quoting).contains(#"<p class="text">So true</p>"#))
        let unavailable = Post(
            id: "44", created: .now, author: Author(handle: "cy", name: "Cy"), text: text, mentions: [link],
            quotedID: "42")
        #expect(unavailable.shownSegments.count == 2, "without the quote, its link is the way to it")
    }

    @Test func manyNamesAreCountedAfterTheFirstThree() {
        let names = (1...5).map { "@u\($0)" }
        let text = names.joined(separator: " ") + " hello"
        let post = Post(
            id: "1", created: .now, author: Author(handle: "cy", name: "Cy"), text: text,
            mentions: TestPosts.mentions(in: text), inReplyToID: "0", displayStart: text.count - 5)
        #expect(row(post).contains(#"@u3</span> and 2 others</p>"#))
        #expect(post.shownSegments.map(\.text) == ["hello"])
    }

    @Test func theMentionsPageStillListsTheRepliedToUsersAndOpensLinksAtTheirAddress() {
        let html = page(MentionsPageView(Self.reply, tab: .search, back: nil, here: "/here"))
        #expect(html.contains(">@ana</a>") && html.contains(">@bo</a>"))
        #expect(html.contains(#"href="https://example.com/a/long/path""#))
    }

    @Test func sensitiveImagesAreBlurredBehindAToggleThatWorksWithoutJavaScript() {
        let html = page(MentionsPageView(Self.reply, tab: .search, back: nil, here: "/here"))
        #expect(
            html.contains(
                #"<details class="sensitive"><summary><span class="show">Sensitive media — tap to show</span>"#))
        let toggle = html.range(of: "</details>")!.upperBound
        #expect(
            html[toggle...].drop { $0.isWhitespace }.hasPrefix("<ul>"),
            "the list follows the toggle, which the stylesheet needs")
        let grid = page(ImagesPageView(query: "#swift", posts: [Self.reply], tab: .search, back: nil, here: "/here"))
        #expect(grid.components(separatedBy: #"class="cell sensitive" aria-label="Sensitive media: Image "#).count == 3)
    }

    @Test func aLinkPreviewShowsUnderTheTextAndItsLinkIsListedOnTheMentionsPage() {
        let card = LinkCard(
            url: "https://www.example.com/story", title: "<b>A story</b>", description: "",
            imageURL: "javascript:alert(1)")
        let post = Post(
            network: .bluesky, id: "at://did:plc:a/app.bsky.feed.post/3k", created: .now,
            author: Author(handle: "a.test", name: "A"),
            text: "read this", card: card)
        let html = row(post)
        #expect(
            html.contains(
                #"""
                <div class="card"><p class="card-title">&lt;b&gt;A story&lt;/b&gt;</p><p class="dim \#
                small">example.com</p></div>
                """#
            ))
        #expect(
            html.contains(#"<a class="row" href="/search/posts/bluesky/"#),
            "a post with only a preview still opens its Mentions page")
        let mentions = page(MentionsPageView(post, tab: .search, back: nil, here: "/here"))
        #expect(mentions.contains(#"href="https://www.example.com/story""#))
    }

    @Test func imagesOfUnknownProportionsHaveNoSizeSoTheyAreSizedOnLoad() {
        let html = page(MentionsPageView(Self.reply, tab: .search, back: nil, here: "/here"))
        #expect(
            html.contains(
                #"""
                <img src="https://img.example/known.jpg" alt="Image 1 of @cy&#39;s post" width="1000" height="500" \#
                loading="lazy">
                """#
            ))
        #expect(
            html.contains(
                #"<img src="https://img.example/unknown.jpg" alt="Image 2 of @cy&#39;s post" loading="lazy">"#))
        let grid = page(ImagesPageView(query: "#swift", posts: [Self.reply], tab: .search, back: nil, here: "/here"))
        #expect(
            grid.contains(
                #"<img src="https://img.example/unknown.jpg" alt="Image 2 of @cy&#39;s post" loading="lazy">"#))
    }

    @Test func anAuthorNotResolvedYetIsListedButNotLinked() {
        let post = Post(
            network: .bluesky, id: "at://did:plc:new/app.bsky.feed.post/3k", created: .now,
            author: Author(handle: "did:plc:new", name: "did:plc:new"), text: "first post #hello")
        let users = MentionsPageView(post, tab: .search, back: nil, here: "/here").sections.first {
            $0.title == "Users"
        }
        #expect(
            users?.items.map(\.text) == ["@did:plc:new"] && users?.items.first?.href == nil, "no search can name a DID")
    }
}
