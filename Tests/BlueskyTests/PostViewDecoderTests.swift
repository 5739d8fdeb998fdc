import Foundation
import Testing

@testable import Bluesky
@testable import Posts
@testable import WireJSON

/// Our own post views in the recorded shapes: emoji, CJK and right-to-left text before facets, facets that must be
/// dropped, embeds, labels and reposts.
struct PostViewDecoderTests {
    static let did = "did:plc:abc123"

    /// A post view whose record has `text` and `facets` (each `(byteStart, byteEnd, feature JSON)`).
    static func view(
        _ text: String, facets: [(Int, Int, String)] = [], extra: String = "", recordExtra: String = ""
    ) -> JSONValue {
        parse(viewJSON(text, facets: facets, extra: extra, recordExtra: recordExtra))
    }

    static func parse(_ json: String) -> JSONValue {
        try! JSONValue.document(Array(json.utf8))
    }

    static func viewJSON(
        _ text: String, facets: [(Int, Int, String)] = [], extra: String = "", recordExtra: String = ""
    ) -> String {
        let facetJSON = facets.map {
            #"""
            {"index":{"byteStart":\#($0.0),"byteEnd":\#($0.1)},"features":[\#($0.2)]}
            """#
        }.joined(separator: ",")
        let json = """
            {"uri":"at://\(did)/app.bsky.feed.post/3kabc","cid":"bafy","indexedAt":"2025-01-02T03:04:06.000Z",
             "author":{"did":"\(did)","handle":"alice.bsky.social","displayName":"Alice",\
            "avatar":"https://cdn.bsky.app/img/avatar/plain/\(did)/c@jpeg"},
             "record":{"$type":"app.bsky.feed.post","text":\(quoted(text)),"createdAt":"2025-01-02T03:04:05.123456Z",\
            "facets":[\(facetJSON)]\(recordExtra)}\(extra)}
            """
        return json
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    static func bytes(_ text: String, _ part: String) -> (Int, Int) {
        let start = text.utf8.distance(from: text.startIndex, to: text.range(of: part)!.lowerBound)
        return (start, start + part.utf8.count)
    }

    static let mention = #"{"$type":"app.bsky.richtext.facet#mention","did":"did:plc:bob"}"#
    static func tag(_ tag: String) -> String { #"{"$type":"app.bsky.richtext.facet#tag","tag":"\#(tag)"}"# }
    static func link(_ uri: String) -> String { #"{"$type":"app.bsky.richtext.facet#link","uri":"\#(uri)"}"# }

    @Test func facetsAfterEmojiCJKAndRightToLeftTextLandOnTheirCodePoints() throws {
        let text = "👩‍💻 東京 مرحبا @bob.test #swift example.com/a…"
        let (m, t, l) = (Self.bytes(text, "@bob.test"), Self.bytes(text, "#swift"), Self.bytes(text, "example.com/a…"))
        let post = try PostViewDecoder.post(
            from: Self.view(
                text,
                facets: [
                    (m.0, m.1, Self.mention), (t.0, t.1, Self.tag("swift")),
                    (
                        l.0, l.1,
                        Self.link(
                            """
                            https://example.com/a/long
                            """)
                    ),
                ]))
        let scalars = Array(text.unicodeScalars)
        #expect(post.mentions.map(\.kind) == [.user, .hashtag, .url])
        for mention in post.mentions {
            #expect(String(String.UnicodeScalarView(scalars[mention.range])) == mention.keyword)
        }
        #expect(post.mentions.map(\.keyword) == ["@bob.test", "#swift", "example.com/a…"])
        #expect(post.mentions[0].range == 13..<22)
        #expect(post.mentions[2].expandedURL == "https://example.com/a/long")
    }

    /// A parent's author is named by DID alone: whom a reply answers is known within the author's own thread.
    @Test func aReplyInTheAuthorsOwnThreadAnswersThem() throws {
        func reply(to did: String) -> String {
            #","reply":{"root":{"uri":"at://\#(did)/app.bsky.feed.post/3kroot","cid":"b"},"#
                + #""parent":{"uri":"at://\#(did)/app.bsky.feed.post/3kparent","cid":"b"}}"#
        }
        let own = try PostViewDecoder.post(from: Self.view("and more", recordExtra: reply(to: Self.did)))
        #expect(own.inReplyToID == "at://\(Self.did)/app.bsky.feed.post/3kparent")
        #expect(own.inReplyToUser == "alice.bsky.social" && own.replyingTo == nil)
        let other = try PostViewDecoder.post(from: Self.view("hi", recordExtra: reply(to: "did:plc:bob")))
        #expect(other.inReplyToID != nil && other.inReplyToUser == nil)
    }

    @Test func facetsThatDisagreeOrAreOffTheTextAreDropped() throws {
        let text = "é #tag @bob plain"
        let post = try PostViewDecoder.post(
            from: Self.view(
                text,
                facets: [
                    (1, 3, Self.tag("x")),  // starts inside "é"
                    (3, 7, Self.tag("other")),  // "#tag" is not #other
                    (8, 12, Self.tag("bob")),  // "@bob" is not a hashtag
                    (13, 18, Self.mention),  // "plain" is not written @…
                    (13, 40, Self.link("https://x.example")),  // past the end
                    (3, 7, Self.link("javascript:alert(1)")),  // not http(s)
                    (8, 12, Self.mention), (9, 12, Self.mention),  // the second overlaps the first
                ]))
        #expect(post.mentions == [Mention(kind: .user, keyword: "@bob", range: 7..<11)])
    }

    @Test func imagesKeepTheirAspectRatiosOrZeroAndTheRowHasItsPermalink() throws {
        let embed = #"""
            ,"embed":{"$type":"app.bsky.embed.images#view","images":[{"thumb":"https://cdn.bsky.app/t",\#
            "fullsize":"https://cdn.bsky.app/f1","alt":"","aspectRatio":{"width":1200,"height":800}},\#
            {"thumb":"https://cdn.bsky.app/t2","fullsize":"https://cdn.bsky.app/f2","alt":""}]}
            """#
        let post = try PostViewDecoder.post(from: Self.view("pics", extra: embed))
        #expect(post.media.map(\.url) == ["https://cdn.bsky.app/f1", "https://cdn.bsky.app/f2"])
        #expect(post.media.map(\.aspectRatio) == [1.5, 0])
        #expect(post.url == "https://bsky.app/profile/alice.bsky.social/post/3kabc")
        #expect(
            post.author
                == Author(
                    handle: "alice.bsky.social", name: "Alice",
                    profileImageURL: """
                        https://cdn.bsky.app/img/avatar/plain/\(Self.did)/c@jpeg
                        """))
        #expect(post.created == Date(timeIntervalSince1970: 1_735_787_045.123456))
    }

    @Test func anExternalEmbedIsALinkPreview() throws {
        let embed = #"""
            ,"embed":{"$type":"app.bsky.embed.external#view","external":{"uri":"https://www.example.com/story",\#
            "title":"A story","description":"What happened",\#
            "thumb":"https://cdn.bsky.app/img/feed_thumbnail/plain/d/c@jpeg"}}
            """#
        let post = try PostViewDecoder.post(from: Self.view("read this", extra: embed))
        #expect(
            post.card
                == LinkCard(
                    url: """
                        https://www.example.com/story
                        """, title: "A story", description: "What happened",
                    imageURL: """
                        https://cdn.bsky.app/img/feed_thumbnail/plain/d/c@jpeg
                        """))
        #expect(post.card?.host == "example.com")
        let hostile = #"""
            ,"embed":{"$type":"app.bsky.embed.external#view","external":{"uri":"javascript:alert(1)","title":"x",\#
            "description":""}}
            """#
        #expect(try PostViewDecoder.post(from: Self.view("no", extra: hostile)).card == nil)
    }

    @Test func aQuoteIsDecodedIntoThePostAndAMissingOneIsNamed() throws {
        let quoted = #"""
            {"$type":"app.bsky.embed.record#viewRecord","uri":"at://did:plc:q/app.bsky.feed.post/3q","cid":"c",\#
            "author":{"did":"did:plc:q","handle":"q.test"},"value":{"$type":"app.bsky.feed.post","text":"the \#
            original #idea","createdAt":"2025-01-01T00:00:00Z","facets":[{"index":{"byteStart":13,"byteEnd":18},\#
            "features":[{"$type":"app.bsky.richtext.facet#tag","tag":"idea"}]}]},"indexedAt":"2025-01-01T00:00:00Z"}
            """#
        let withMedia = #"""
            ,"embed":{"$type":"app.bsky.embed.recordWithMedia#view","record":{"$type":"app.bsky.embed.record#view",\#
            "record":\#(quoted)},"media":{"$type":"app.bsky.embed.images#view","images":[{"thumb":"https://t",\#
            "fullsize":"https://f","alt":""}]}}
            """#
        let post = try PostViewDecoder.post(from: Self.view("quoting", extra: withMedia))
        #expect(post.quoted?.text == "the original #idea" && post.quoted?.mentions.first?.keyword == "#idea")
        #expect(post.media.map(\.url) == ["https://f"])
        let gone = #"""
            ,"embed":{"$type":"app.bsky.embed.record#view","record":{"$type":"app.bsky.embed.record#viewNotFound",\#
            "uri":"at://did:plc:q/app.bsky.feed.post/3z","notFound":true}}
            """#
        let missing = try PostViewDecoder.post(from: Self.view("quoting a deleted post", extra: gone))
        #expect(missing.quotedID == "at://did:plc:q/app.bsky.feed.post/3z" && missing.quoted == nil)
    }

    @Test func labelsBecomeAWarningWithBlurredMediaUnlessNegated() throws {
        let selfLabelled = try PostViewDecoder.post(
            from: Self.view(
                "hm",
                recordExtra: #"""
                    ,"labels":{"$type":"com.atproto.label.defs#selfLabels","values":[{"val":"nudity"}]}
                    """#))
        #expect(selfLabelled.contentWarning == "Non-sexual nudity" && selfLabelled.isSensitive)
        let moderated = try PostViewDecoder.post(
            from: Self.view(
                "hm",
                extra: #"""
                    ,"labels":[{"src":"did:plc:mod","uri":"at://x","val":"graphic-media",\#
                    "cts":"2025-01-01T00:00:00Z"},{"src":"did:plc:mod","uri":"at://x","val":"porn",\#
                    "cts":"2025-01-01T00:00:00Z"},{"src":"did:plc:mod","uri":"at://x","val":"porn","neg":true,\#
                    "cts":"2025-01-01T00:00:01Z"}]
                    """#))
        #expect(moderated.contentWarning == "Graphic media" && moderated.isSensitive)
        let plain = try PostViewDecoder.post(
            from: Self.view(
                "fine",
                extra: #"""
                    ,"labels":[{"src":"did:plc:mod","uri":"at://x","val":"!no-unauthenticated",\#
                    "cts":"2025-01-01T00:00:00Z"}]
                    """#))
        #expect(plain.contentWarning == nil && !plain.isSensitive)
    }

    @Test func aRepostInAFeedKeepsTheRepostsTimeAndShowsTheOriginal() throws {
        let reason = #"""
            {"$type":"app.bsky.feed.defs#reasonRepost","by":{"did":"did:plc:r","handle":"rob.test"},\#
            "indexedAt":"2025-02-01T00:00:00Z"}
            """#
        let post = try PostViewDecoder.post(
            from: Self.parse(
                #"""
                {"post":\#(Self.viewJSON("original words", recordExtra: #","langs":["ja","en"]"#)),"reason":\#(reason)}
                """#))
        #expect(
            post.text == "original words" && post.repostedBy?.handle == "rob.test"
                && post.author.handle == """
                    alice.bsky.social
                    """
        )
        #expect(post.created == Date(timeIntervalSince1970: 1_738_368_000))
        #expect(post.language == "ja", "the first of the record's languages, kept by the repost")
    }

    @Test func aPostWithoutTextOrAuthorSaysWhich() {
        let noURI = Self.parse(#"{"record":{"text":"x"}}"#)
        #expect(throws: BlueskyDecodingError.missing("uri")) { try PostViewDecoder.post(from: noURI) }
        let noDate = Self.parse(
            #"""
            {"uri":"at://d/app.bsky.feed.post/1","author":{"did":"d","handle":"h.test"},"record":{"text":"x",\#
            "createdAt":"yesterday"}}
            """#)
        #expect(
            throws: BlueskyDecodingError.invalid(
                "createdAt",
                uri: """
                    at://d/app.bsky.feed.post/1
                    """)
        ) { try PostViewDecoder.post(from: noDate) }
    }
}
