import Foundation
import Testing

@testable import Bluesky
@testable import Posts

/// Jetstream's events in its own shapes (written here after its documentation and the lexicons): creates with
/// facets and every embed, deletes, identity and account events, and what must be skipped with a reason.
struct JetstreamEventTests {
    static let did = "did:plc:abc123"

    static func commit(
        _ operation: String, rkey: String = "3lbc7xyz", collection: String = "app.bsky.feed.post", record: String? = nil
    ) -> [UInt8] {
        let record = record.map { ",\"record\":\($0),\"cid\":\"bafyrei\"" } ?? ""
        return Array(
            """
            {"did":"\(did)","time_us":1732300000123456,"kind":"commit","commit":{"rev":"3lbc7",\
            "operation":"\(operation)",\
            "collection":"\(collection)","rkey":"\(rkey)"\(record)}}
            """.utf8)
    }

    static func record(_ text: String, extra: String = "") -> String {
        #"""
        {"$type":"app.bsky.feed.post","text":\#(PostViewDecoderTests.quoted(text)),\#
        "createdAt":"2024-11-22T18:26:40.500Z","langs":["en"]\#(extra)}
        """#
    }

    static func created(_ extra: String = "", text: String = "Hi #swift") throws -> Post {
        guard
            case .create(let post, let langs, let cursor) = try JetstreamEvent.decode(
                commit("create", record: record(text, extra: extra)))
        else {
            throw JetstreamError.malformed("not a create")
        }
        #expect(cursor == 1_732_300_000_123_456 && langs == ["en"])
        return post
    }

    @Test func aCreateIsAPostByItsDIDWithItsFacetsAsMentions() throws {
        let text = "日本語 👍🏽 #swift @bob.example.com"
        let (tagStart, tagEnd) = PostViewDecoderTests.bytes(text, "#swift")
        let (bobStart, bobEnd) = PostViewDecoderTests.bytes(text, "@bob.example.com")
        let facets =
            #"""
            ,"facets":[{"index":{"byteStart":\#(tagStart),"byteEnd":\#(tagEnd)},\#
            "features":[\#(PostViewDecoderTests.tag("swift"))]},
            """#
                + #"""
                {"index":{"byteStart":\#(bobStart),"byteEnd":\#(bobEnd)},"features":[\#(PostViewDecoderTests.mention)]}]
                """#
        let post = try Self.created(facets, text: text)
        #expect(post.network == .bluesky && post.id == "at://\(Self.did)/app.bsky.feed.post/3lbc7xyz")
        #expect(post.author.handle == Self.did, "the author resolves later")
        #expect(post.created == Date(timeIntervalSince1970: 1_732_300_000.5))
        #expect(post.mentions.map(\.keyword) == ["#swift", "@bob.example.com"])
        #expect(
            post.mentions.map(\.range) == [7..<13, 14..<30], "code points: 日本語, a space, 👍 and its skin tone, a space")
        #expect(post.url == "https://bsky.app/profile/\(Self.did)/post/3lbc7xyz")
        #expect(post.language == "en")
    }

    @Test func imagesAreTheCDNsAddressesOfTheirBlobsWithTheirAspectRatios() throws {
        let blob = #"{"$type":"blob","ref":{"$link":"bafkreiabc"},"mimeType":"image/jpeg","size":1000}"#
        let post = try Self.created(
            #"""
            ,"embed":{"$type":"app.bsky.embed.images","images":[{"alt":"A red kite over the \#
            ridge","image":\#(blob),"aspectRatio":{"width":1600,"height":900}},{"alt":"","image":\#(blob)}]}
            """#
        )
        #expect(
            post.media == [
                MediaItem(
                    url: "https://cdn.bsky.app/img/feed_fullsize/plain/\(Self.did)/bafkreiabc@jpeg",
                    aspectRatio: 16.0 / 9, kind: .photo,
                    alt: "A red kite over the ridge"),
                MediaItem(
                    url: "https://cdn.bsky.app/img/feed_fullsize/plain/\(Self.did)/bafkreiabc@jpeg", aspectRatio: 0,
                    kind: .photo),
            ])
    }

    @Test func quotesVideosAndLinkCardsComeFromTheirRecordForms() throws {
        let quote = try Self.created(
            #"""
            ,"embed":{"$type":"app.bsky.embed.recordWithMedia","record":{"$type":"app.bsky.embed.record",\#
            "record":{"uri":"at://did:plc:q/app.bsky.feed.post/3k","cid":"bafy"}},\#
            "media":{"$type":"app.bsky.embed.video","video":{"$type":"blob","ref":{"$link":"bafkreivid"}},\#
            "alt":"Waves","aspectRatio":{"width":9,"height":16}}}
            """#
        )
        #expect(quote.quotedID == "at://did:plc:q/app.bsky.feed.post/3k" && quote.quoted == nil)
        let watch = "https://video.bsky.app/watch/did%3Aplc%3Aabc123/bafkreivid"
        #expect(
            quote.media == [
                MediaItem(
                    url: "\(watch)/thumbnail.jpg", aspectRatio: 9.0 / 16, kind: .video,
                    playURL: "\(watch)/playlist.m3u8", alt: "Waves")
            ])
        let loop = try Self.created(
            #"""
            ,"embed":{"$type":"app.bsky.embed.video","video":{"$type":"blob","ref":{"$link":"bafkreigif"}},\#
            "presentation":"gif"}
            """#
        )
        #expect(loop.media.map(\.kind) == [.gifv])
        let card = try Self.created(
            #"""
            ,"embed":{"$type":"app.bsky.embed.external","external":{"uri":"https://swift.org","title":"Swift",\#
            "description":"d","thumb":{"$type":"blob","ref":{"$link":"bafkreithumb"}}}}
            """#
        )
        #expect(
            card.card
                == LinkCard(
                    url: "https://swift.org", title: "Swift", description: "d",
                    imageURL: "https://cdn.bsky.app/img/feed_thumbnail/plain/\(Self.did)/bafkreithumb@jpeg"))
        let hostile = try Self.created(
            #","embed":{"$type":"app.bsky.embed.external","external":{"uri":"javascript:alert(1)","title":"x"}}"#)
        #expect(hostile.card == nil)
        let unknown = try Self.created(#","embed":{"$type":"app.bsky.embed.somethingNew","x":1}"#)
        #expect(
            unknown.media.isEmpty && unknown.card == nil && unknown.quotedID == nil,
            "an unknown embed is left out, the post kept")
    }

    @Test func repliesLabelsAndBadFacetsAreReadAsPostViewsAreRead() throws {
        let post = try Self.created(
            #"""
            ,"reply":{"root":{"uri":"at://r","cid":"c"},"parent":{"uri":"at://did:plc:p/app.bsky.feed.post/1",\#
            "cid":"c"}},"labels":{"$type":"com.atproto.label.defs#selfLabels","values":[{"val":"graphic-media"}]},\#
            "facets":[{"index":{"byteStart":3,"byteEnd":99},"features":[\#(PostViewDecoderTests.tag("swift"))]}]
            """#
        )
        #expect(post.inReplyToID == "at://did:plc:p/app.bsky.feed.post/1")
        #expect(post.contentWarning == "Graphic media" && post.isSensitive)
        #expect(post.mentions.isEmpty, "a facet past the text is dropped, the post kept")
    }

    @Test func deletesIdentitiesAndEverythingElseKeepTheirCursors() throws {
        #expect(
            try JetstreamEvent.decode(Self.commit("delete"))
                == .delete(uri: "at://\(Self.did)/app.bsky.feed.post/3lbc7xyz", cursor: 1_732_300_000_123_456))
        let identity = Array(
            #"""
            {"did":"did:plc:abc123","time_us":5,"kind":"identity","identity":{"did":"did:plc:abc123",\#
            "handle":"alice.example.com","seq":1,"time":"2024-11-22T18:26:40Z"}}
            """#
            .utf8)
        #expect(try JetstreamEvent.decode(identity) == .identity(did: Self.did, cursor: 5))
        let account = Array(
            #"""
            {"did":"did:plc:abc123","time_us":6,"kind":"account","account":{"active":false,"did":"did:plc:abc123",\#
            "seq":2,"status":"deleted","time":"2024-11-22T18:26:40Z"}}
            """#
            .utf8)
        #expect(try JetstreamEvent.decode(account) == .accountGone(did: Self.did, cursor: 6), "issue 51")
        let deactivated = String(decoding: account, as: UTF8.self).replacingOccurrences(
            of: #""status":"deleted""#, with: #""status":"deactivated""#)
        #expect(try JetstreamEvent.decode(Array(deactivated.utf8)) == .other(cursor: 6), "it may come back")
        #expect(
            try JetstreamEvent.decode(Self.commit("create", collection: "app.bsky.feed.like", record: "{}"))
                == .other(cursor: 1_732_300_000_123_456))
        #expect(
            try JetstreamEvent.decode(Self.commit("update", record: Self.record("edited")))
                == .other(cursor: 1_732_300_000_123_456))
    }

    @Test(arguments: [
        (#"{"did":"did:plc:abc123","kind":"commit"}"#, "a malformed Jetstream event: no time_us"),
        (#"{"time_us":1,"kind":"commit"}"#, "a malformed Jetstream event: no did"),
        (#"{"did":"did:plc:a/../x","time_us":1,"kind":"identity"}"#, "a malformed Jetstream event: no did"),
        (
            #"""
            {"did":"did:plc:abc123","time_us":1,"kind":"commit","commit":{"operation":"create",\#
            "collection":"app.bsky.feed.post","rkey":"a/b"}}
            """#,
            "a malformed Jetstream event: a commit without an rkey"
        ),
        (
            #"""
            {"did":"did:plc:abc123","time_us":1,"kind":"commit","commit":{"operation":"create",\#
            "collection":"app.bsky.feed.post","rkey":"k"}}
            """#,
            "at://did:plc:abc123/app.bsky.feed.post/k does not follow app.bsky.feed.post: no record"
        ),
        (
            #"""
            {"did":"did:plc:abc123","time_us":1,"kind":"commit","commit":{"operation":"create",\#
            "collection":"app.bsky.feed.post","rkey":"k","record":{"createdAt":"2024-01-01T00:00:00Z"}}}
            """#,
            "at://did:plc:abc123/app.bsky.feed.post/k does not follow app.bsky.feed.post: no text"
        ),
        (
            #"{"did":"did:plc:abc123","time_us":1,"kind":"#,
            "a malformed Jetstream event: not JSON (line 1: expected a value)"
        ),
    ])
    func whatCannotBeStoredIsOneSentence(event: String, sentence: String) {
        #expect(throws: (any Error).self) { try JetstreamEvent.decode(Array(event.utf8)) }
        do { _ = try JetstreamEvent.decode(Array(event.utf8)) } catch { #expect(error.description == sentence) }
    }
}
