import Foundation
import Testing

@testable import Mastodon
@testable import Posts
@testable import WireJSON

/// Statuses written in the shapes Mastodon sends, decoded into posts.
struct StatusDecoderTests {
    private func decode(_ json: String) throws -> Post {
        try StatusDecoder.post(from: statusJSON(json))
    }

    private static let alice =
        #"""
        {"id":"1","username":"alice","acct":"alice","display_name":"Alice \#
        A.","url":"https://home.example/@alice","avatar":"https://home.example/a.png",\#
        "avatar_static":"https://home.example/a-static.png"}
        """#
    private static let bob =
        #"""
        {"id":"2","username":"bob","acct":"bob@far.example","display_name":"","url":"https://far.example/@bob",\#
        "avatar":"javascript:alert(1)"}
        """#

    @Test func aStatusWithEverything() throws {
        let post = try decode(
            """
            {"id":"110","created_at":"2026-08-01T13:55:55.867Z","in_reply_to_id":"100","sensitive":true,
             "spoiler_text":"food","language":"pt-BR","url":"https://home.example/@alice/110",\
            "uri":"https://home.example/users/alice/statuses/110",
             "content":"<p>lunch &amp; <a href=\\"https://home.example/tags/Food\\" class=\\"mention hashtag\\" \
            rel=\\"tag\\">#<span>Food</span></a></p>",
             "account":\(Self.alice),"reblog":null,"mentions":[],"tags":[{"name":"food",\
            "url":"https://home.example/tags/food"}],
             "media_attachments":[
               {"type":"image","url":"https://home.example/1.jpg","preview_url":"https://home.example/1s.jpg",\
            "meta":{"original":{"width":640,"height":480}},"description":"  A bowl of ramen <b>hot</b>  "},
               {"type":"gifv","url":"https://home.example/2.mp4","preview_url":"https://home.example/2.png",\
            "meta":{"small":{"aspect":2.0}},"description":""},
               {"type":"video","url":"https://home.example/3.mp4","preview_url":"https://home.example/3.png",\
            "meta":{"original":{"duration":88.654}}},
               {"type":"audio","url":"https://home.example/4.mp3","preview_url":null,"meta":{"duration":402.86}},
               {"type":"video","url":"http://plain.example/5.mp4","preview_url":"https://home.example/5.png"},
               {"type":"unknown","url":"https://home.example/6.bin"}
             ]}
            """)
        #expect(post.network == .mastodon && post.id == "110")
        #expect(post.created.timeIntervalSince1970 == 1_785_592_555.867)
        #expect(
            post.author
                == Author(
                    handle: "alice@home.example", name: "Alice A.", profileImageURL: "https://home.example/a-static.png"
                ))
        #expect(post.text == "lunch & #Food")
        #expect(post.mentions == [Mention(kind: .hashtag, keyword: "#Food", range: 8..<13)])
        #expect(post.media.map(\.kind) == [.photo, .gifv, .video, .audio, .video])
        #expect(
            post.media.map(\.url) == [
                "https://home.example/1.jpg", "https://home.example/2.png", "https://home.example/3.png", "",
                "https://home.example/5.png",
            ])
        #expect(
            post.media.map(\.playURL) == [
                nil, "https://home.example/2.mp4", "https://home.example/3.mp4", "https://home.example/4.mp3", nil,
            ])
        #expect(post.media.map(\.aspectRatio) == [640.0 / 480.0, 2, 0, 0, 0])
        #expect(post.media.map(\.alt) == ["A bowl of ramen <b>hot</b>", nil, nil, nil, nil])
        #expect(post.media.map(\.duration) == [nil, nil, 88.654, 402.86, nil])
        #expect(post.contentWarning == "food" && post.isSensitive && post.inReplyToID == "100")
        #expect(post.url == "https://home.example/@alice/110" && post.language == "pt-BR")
    }

    /// `in_reply_to_account_id` is an id: the author's own (a thread), or an account the status mentions.
    @Test func whomAReplyAnswersIsItsAuthorOrAnAccountItMentions() throws {
        func status(_ id: String, replyingTo account: String?) -> String {
            let reply = account.map { #""in_reply_to_id":"100","in_reply_to_account_id":"\#($0)","# } ?? ""
            return #"""
                {"id":"\#(id)","created_at":"2026-08-01T13:55:55Z",\#(reply)"content":"<p>hi</p>",\#
                "account":\#(Self.alice),"reblog":null,"mentions":[{"id":"2","username":"bob",\#
                "acct":"bob@far.example","url":"https://far.example/@bob"}],"media_attachments":[]}
                """#
        }
        #expect(try decode(status("120", replyingTo: "1")).inReplyToUser == "alice@home.example")
        #expect(try decode(status("121", replyingTo: "2")).inReplyToUser == "bob@far.example")
        #expect(try decode(status("122", replyingTo: "9")).inReplyToUser == nil, "an account it does not list")
        #expect(try decode(status("123", replyingTo: nil)).inReplyToUser == nil)
        #expect(try decode(status("121", replyingTo: "2")).replyingTo?.names == ["@bob@far.example"])
        #expect(try decode(status("120", replyingTo: "1")).replyingTo == nil, "their own thread says nothing")
    }

    @Test func aBoostKeepsItsOwnIdAndTimeAndShowsTheOriginal() throws {
        let post = try decode(
            """
            {"id":"900","created_at":"2026-08-02T00:00:00Z","content":"","account":\(Self.alice),"mentions":[],\
            "tags":[],
             "media_attachments":[],"url":null,"uri":"https://home.example/users/alice/statuses/900/activity",
             "language":null,
             "reblog":{"id":"800","created_at":"2026-08-01T00:00:00Z","content":"<p>original</p>","account":\(Self.bob),
                       "language":"de",
                       "mentions":[],"tags":[],"media_attachments":[],"url":"https://far.example/@bob/800",\
            "sensitive":false,"spoiler_text":""}}
            """)
        #expect(post.id == "900")
        #expect(post.created.timeIntervalSince1970 == 1_785_628_800)
        #expect(post.text == "original")
        #expect(post.author == Author(handle: "bob@far.example", name: "bob", profileImageURL: nil))
        #expect(post.repostedBy?.handle == "alice@home.example")
        #expect(post.url == "https://far.example/@bob/800")
        #expect(post.language == "de", "the boosted status's")
    }

    @Test func aQuoteIsDecodedIntoThePost() throws {
        let post = try decode(
            """
            {"id":"901","created_at":"2026-08-02T00:00:00.000Z","content":"<p>this</p>","account":\(Self.alice),\
            "mentions":[],
             "tags":[],"media_attachments":[],"url":"https://home.example/@alice/901",
             "quote":{"state":"accepted","quoted_status":{"id":"800","created_at":"2026-08-01T00:00:00Z",\
            "content":"<p>quoted</p>",
                      "account":\(Self.bob),"mentions":[],"tags":[],"media_attachments":[],\
            "url":"https://far.example/@bob/800"}}}
            """)
        #expect(post.quotedID == "800")
        #expect(post.quoted?.text == "quoted")
        #expect(post.quoted?.author.handle == "bob@far.example")
    }

    @Test(arguments: [
        (#"{"created_at":"2026-08-02T00:00:00Z","account":{}}"#, "a status has no id"),
        (#"{"id":"5","created_at":"yesterday"}"#, "status 5 has no valid created_at"),
        (#"{"id":"5","created_at":"2026-08-02T00:00:00Z","account":{"id":"1"}}"#, "status 5 has no valid account"),
    ])
    func whatIsNotAStatusSaysWhy(json: String, message: String) {
        let error = #expect(throws: MastodonDecodingError.self) { try decode(json) }
        #expect(error?.description == message)
    }
}
