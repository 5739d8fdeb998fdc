import Testing
import WireJSON

@testable import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `Post(json:)` reads back what the one writer of a post's JSON writes — the stored form, the public one, the NDJSON
/// export with `counted` — and what earlier releases stored, and refuses what it cannot read in one sentence.
struct PostJSONReaderTests {
    private static let alice = Author(
        handle: "alice@example.social", name: "Alice 🌸", profileImageURL: "https://example.social/a.png")

    /// A time with microseconds, as Bluesky writes them, read the way every network's times are read.
    private static let created = WireDate.parseISO8601("2024-05-01T10:00:00.123456Z")!

    /// Text past the Basic Multilingual Plane and in CJK, so code points, UTF-16 and characters all differ.
    private static let quoted = Post(
        network: .bluesky, id: "at://did:plc:q/app.bsky.feed.post/3k", created: created, author: alice,
        text: "👩‍💻 東京 #一 done",
        mentions: [Mention(kind: .hashtag, keyword: "#一", range: 8..<10)], language: "ja")

    static let posts: [Post] = [
        Post(
            network: .mastodon, id: "112233", created: created, author: alice,
            text: "🇩🇿 #hirak with @bob@other.example https://example.com/a",
            mentions: [
                Mention(kind: .hashtag, keyword: "#hirak", range: 3..<9),
                Mention(kind: .user, keyword: "@bob@other.example", range: 15..<33),
                Mention(
                    kind: .url, keyword: "https://example.com/a", range: 34..<55,
                    expandedURL: "https://example.com/a?long", display: "example.com/a…"),
            ],
            media: [
                MediaItem(url: "https://example.social/p.png", aspectRatio: 1.5, alt: "A \"quoted\" <alt>\nline 2"),
                MediaItem(
                    url: "https://example.social/v.png", aspectRatio: 16.0 / 9, kind: .video,
                    playURL: "https://example.social/v.mp4", duration: 88.654),
                MediaItem(url: "https://example.social/g.png", aspectRatio: 1, kind: .gifv),
                MediaItem(url: "", aspectRatio: 0, kind: .audio, playURL: "https://example.social/a.mp3"),
            ],
            repostedBy: Author(handle: "bob@other.example", name: "Bob"), quoted: quoted, inReplyToID: "112200",
            displayStart: 3, contentWarning: "spoilers ahead", isSensitive: true,
            card: LinkCard(
                url: "https://example.com/a", title: "A \"title\"", description: "d\u{0}", imageURL: "https://e.x/i.png"
            ),
            url: "https://example.social/@alice/112233", language: "pt-BR"),
        quoted,
        Post(
            id: "1790000000000000001", created: Date(timeIntervalSinceReferenceDate: 736_000_000),
            author: Author(handle: "nasa", name: "NASA"), text: "plain", quotedID: "1790000000000000000"),
    ]

    private func value(_ text: String) throws -> JSONValue {
        try JSONValue.document(Array(text.utf8))
    }

    @Test(arguments: posts)
    func theStoredFormReadsBackEqual(post: Post) throws {
        #expect(try Post(json: value(post.storedJSON)) == post)
        #expect(try Post(json: value(post.publicJSON)).id == post.id, "the public form, to the second")
    }

    /// The export writes `created` as ISO-8601 with up to six fractional digits, and adds `counted`.
    @Test(arguments: posts)
    func theExportsLinesReadBackEqual(post: Post) throws {
        let line = try Self.exportLine(post)
        #expect(line.contains(#""created":"2"#) && line.contains(#""counted":"#))
        #expect(try Post(json: value(line)) == post)
    }

    /// The public form writes whole seconds: the post comes back at its second.
    @Test func thePublicFormReadsBackAtTheSecond() throws {
        let post = Self.posts[0]
        let read = try Post(json: value(post.publicJSON))
        #expect(read.created == Date(timeIntervalSince1970: post.created.timeIntervalSince1970.rounded(.down)))
        #expect(read.text == post.text && read.mentions == post.mentions && read.quoted?.text == post.quoted?.text)
        #expect(read.language == "pt-BR")
    }

    @Test func whatEarlierReleasesStoredStillReads() throws {
        let stored = """
            {"id":"1900","created":700000000,"user":{"screenName":"a","name":"A"},"text":"hi",\
            "retweetedBy":{"screenName":"b","name":"B"},"media":[{"url":"https://p/1.jpg","aspectRatio":1,\
            "kind":"animated_gif"}],"quotedID":null,"card":null}
            """
        let post = try Post(json: value(stored))
        #expect(post.id == "1900" && post.created == Date(timeIntervalSinceReferenceDate: 700_000_000))
        #expect(post.author.handle == "a" && post.text == "hi" && post.repostedBy?.handle == "b")
        #expect(post.network == .twitter && post.mentions.isEmpty && post.media.map(\.kind) == [.gifv])
        #expect(post.url == "https://x.com/i/status/1900" && post.language == nil)
    }

    /// A post 7 with `members` added, or in place of the ones it has.
    private static func json(_ members: String = "", dropping key: String = "") -> String {
        let base = [
            ("id", #""7""#), ("created", "0"), ("user", #"{"screenName":"a","name":"A"}"#), ("text", #""x""#),
        ]
        let kept = base.filter { $0.0 != key }.map { #""\#($0.0)":\#($0.1)"# }
        return "{" + (kept + (members.isEmpty ? [] : [members])).joined(separator: ",") + "}"
    }

    @Test(arguments: [
        (json(dropping: "id"), "a post has no “id”"),
        (json(dropping: "created"), "post 7 has no “created”"),
        (
            json(#""created":"yesterday""#, dropping: "created"),
            "post 7 has an invalid “created”: expected seconds since 2001 or an ISO-8601 time"
        ),
        (json(#""id":7"#, dropping: "id"), "a post has an invalid “id”: expected a string, found a number"),
        (json(#""user":{"name":"A"}"#, dropping: "user"), "post 7's “user” has no “screenName”"),
        (json(#""user":"a""#, dropping: "user"), "post 7's “user” is not a JSON object (found a string)"),
        (json(dropping: "text"), "post 7 has no “text”"),
        (
            json(#""network":"myspace""#),
            "post 7 has an invalid “network”: expected twitter, mastodon or bluesky, found “myspace”"
        ),
        (
            json(
                #"""
                "mentions":[{"kind":"hashtag","keyword":"#a","start":0,"end":2},\#
                {"kind":"user","keyword":"@b","start":5,"end":3}]
                """#),
            "post 7's “mentions” item 2 ends (3) before it starts (5)"
        ),
        (
            json(#""mentions":[{"kind":"cashtag","keyword":"$a","start":0,"end":2}]"#),
            "post 7's “mentions” item 1 has an invalid “kind”: expected hashtag, user or url, found “cashtag”"
        ),
        (json(#""media":{"url":"u"}"#), "post 7 has an invalid “media”: expected an array, found an object"),
        (json(#""media":[{"url":"u","kind":"photo"}]"#), "post 7's “media” item 1 has no “aspectRatio”"),
        (json(#""sensitive":"yes""#), "post 7 has an invalid “sensitive”: expected true or false, found a string"),
        (json(#""card":{"url":"u","title":"t"}"#), "post 7's “card” has no “description”"),
        (json(#""quoted":{"id":"6","created":0,"text":"q"}"#), "post 7's “quoted” post has no “user”"),
        (#"["id"]"#, "a post is not a JSON object (found an array)"),
    ])
    func whatCodableRefusesIsOneSentence(json: String, message: String) throws {
        #expect(throws: PostJSONError(message: message)) { try Post(json: value(json)) }
    }

    /// The post as the export writes it: with the time it was counted.
    static func exportLine(_ post: Post) throws -> String {
        var json = JSONWriter()
        json.writePublic(post, times: .microseconds(counted: WireDate.parseISO8601("2024-05-02T00:00:00Z")))
        return json.output.string
    }
}
