import Foundation
import Testing

@testable import Mastodon
@testable import Posts
@testable import WireJSON

/// Issue 53: the servers besides Mastodon that speak its API, each from a status recorded in its own shape —
/// GoToSocial (ULID ids, `/users/…/statuses/…` and `/@…/statuses/…`, no `indexable`, an `interaction_policy`) and
/// Akkoma (flake ids, `/objects/…` uris, `/notice/…` pages, hashtags without a `<span>`, a `pleroma` object, and a
/// quote given as the status itself rather than Mastodon 4.4's `quote.quoted_status`).
struct FederatedSoftwareTests {
    static let goToSocial = #"""
        {"id":"01JDQ8Z6S3M4V9XKQ7T2B5C8DE","created_at":"2026-11-28T10:00:00.000Z","edited_at":null,
         "in_reply_to_id":null,"in_reply_to_account_id":null,"sensitive":false,"spoiler_text":"",
         "visibility":"public","language":"en",
         "uri":"https://gts.example/users/carol/statuses/01JDQ8Z6S3M4V9XKQ7T2B5C8DE",
         "url":"https://gts.example/@carol/statuses/01JDQ8Z6S3M4V9XKQ7T2B5C8DE",
         "replies_count":0,"reblogs_count":0,"favourites_count":0,"favourited":false,"reblogged":false,
         "muted":false,"bookmarked":false,"pinned":false,"reblog":null,
         "application":{"name":"Tusky","website":"https://tusky.app"},
         "account":{"id":"01HZZ5T3A2B1C0D9E8F7G6H5J4","username":"carol","acct":"carol","display_name":"Carol",
          "locked":false,"discoverable":true,"bot":false,"created_at":"2024-01-02T03:04:05.000Z","note":"",
          "url":"https://gts.example/@carol","avatar":"https://gts.example/fileserver/01HZ/avatar.png",
          "avatar_static":"https://gts.example/fileserver/01HZ/avatar.png","header":"","header_static":"",
          "followers_count":12,"following_count":3,"statuses_count":40,"last_status_at":"2026-11-28",
          "emojis":[],"fields":[]},
         "media_attachments":[],
         "mentions":[{"id":"01HZZ9","username":"alice","url":"https://mastodon.social/@alice",
          "acct":"alice@mastodon.social"}],
         "tags":[{"name":"fediverse","url":"https://gts.example/tags/fediverse"}],"emojis":[],"card":null,"poll":null,
         "text":"Hello #fediverse @alice@mastodon.social",
         "content":"<p>Hello <a href=\"https://gts.example/tags/fediverse\" class=\"mention hashtag\" \#
        rel=\"tag nofollow noreferrer noopener\" target=\"_blank\">#<span>fediverse</span></a> \#
        <span class=\"h-card\"><a href=\"https://mastodon.social/@alice\" class=\"u-url mention\" \#
        rel=\"nofollow noreferrer noopener\" target=\"_blank\">@<span>alice</span></a></span></p>",
         "interaction_policy":{"can_favourite":{"always":["public"],"with_approval":[]},
          "can_reply":{"always":["public"],"with_approval":[]},"can_reblog":{"always":["public"],"with_approval":[]}}}
        """#

    static let akkoma = #"""
        {"id":"AoQ2hJ1cT9yKq0b3Wm","uri":"https://akkoma.example/objects/6e1f1b7c-2f3e-4b1b-9d7e-1a2b3c4d5e6f",
         "url":"https://akkoma.example/notice/AoQ2hJ1cT9yKq0b3Wm","created_at":"2026-11-28T11:30:00.000Z",
         "content":"Look at this <a class=\"hashtag\" data-tag=\"fediverse\" \#
        href=\"https://akkoma.example/tag/fediverse\" rel=\"tag ugc\">#fediverse</a>",
         "account":{"id":"AoQ1","username":"bea","acct":"bea","display_name":"Bea","locked":false,
          "url":"https://akkoma.example/users/bea","avatar":"https://akkoma.example/media/bea.png",
          "avatar_static":"https://akkoma.example/media/bea.png","note":"","fields":[],"emojis":[],
          "pleroma":{"is_admin":false,"is_moderator":false,"relationship":{},"tags":[]}},
         "mentions":[],"tags":[{"name":"fediverse","url":"https://akkoma.example/tag/fediverse"}],"emojis":[],
         "media_attachments":[],"sensitive":false,"spoiler_text":"","reblog":null,"in_reply_to_id":null,
         "in_reply_to_account_id":null,"replies_count":2,"language":null,"visibility":"public","card":null,
         "quote_id":"AoQ0aaaa","quote_url":"https://mastodon.social/@alice/113",
         "quote":{"id":"AoQ0aaaa","uri":"https://mastodon.social/users/alice/statuses/113",
          "url":"https://mastodon.social/@alice/113","created_at":"2026-11-28T09:00:00.000Z",
          "content":"<p>The original thought</p>","account":{"id":"AoQ9","username":"alice",
          "acct":"alice@mastodon.social","display_name":"Alice","url":"https://mastodon.social/@alice"},
          "mentions":[],"tags":[],"emojis":[],"media_attachments":[],"sensitive":false,"spoiler_text":"",
          "reblog":null,"in_reply_to_id":null,"quote":null},
         "pleroma":{"local":true,"conversation_id":4242,"context":"https://akkoma.example/contexts/1",
          "content":{"text/plain":"Look at this #fediverse"},"spoiler_text":{"text/plain":""},
          "quote_url":"https://mastodon.social/@alice/113","emoji_reactions":[],"expires_at":null}}
        """#

    @Test func aGoToSocialStatusIsAPostWithItsUri() throws {
        let json = try statusJSON(Self.goToSocial)
        let post = try StatusDecoder.post(from: json)
        #expect(post.id == "01JDQ8Z6S3M4V9XKQ7T2B5C8DE")
        #expect(post.author.handle == "carol@gts.example" && post.author.name == "Carol")
        #expect(post.url == "https://gts.example/@carol/statuses/01JDQ8Z6S3M4V9XKQ7T2B5C8DE")
        #expect(post.mentions.map(\.keyword) == ["#fediverse", "@alice@mastodon.social"])
        #expect(!post.notIndexable, "GoToSocial says nothing of `indexable`: nothing to honour")
        var uris: [String: String] = [:]
        StatusDecoder.uris(of: json, into: &uris)
        #expect(uris == [post.id: "https://gts.example/users/carol/statuses/01JDQ8Z6S3M4V9XKQ7T2B5C8DE"])
        // Its ids sort as Mastodon's do: a longer one is later, and among ULIDs of one length, the later sorts after.
        #expect(MastodonID.isBefore("01JDQ8Z6S3M4V9XKQ7T2B5C8DD", post.id))
    }

    @Test func anAkkomaStatusKeepsItsHashtagAndTheStatusItQuotes() throws {
        let json = try statusJSON(Self.akkoma)
        let post = try StatusDecoder.post(from: json)
        #expect(post.author.handle == "bea@akkoma.example")
        #expect(post.url == "https://akkoma.example/notice/AoQ2hJ1cT9yKq0b3Wm")
        #expect(post.text == "Look at this #fediverse")
        #expect(post.mentions.map(\.keyword) == ["#fediverse"])
        #expect(post.quotedID == "AoQ0aaaa")
        #expect(post.quoted?.text == "The original thought" && post.quoted?.author.handle == "alice@mastodon.social")
        var uris: [String: String] = [:]
        StatusDecoder.uris(of: json, into: &uris)
        #expect(
            uris == [
                "AoQ2hJ1cT9yKq0b3Wm": "https://akkoma.example/objects/6e1f1b7c-2f3e-4b1b-9d7e-1a2b3c4d5e6f",
                "AoQ0aaaa": "https://mastodon.social/users/alice/statuses/113",
            ])
        // In a fleet, the quote is named by its uri too: the same post whatever server delivered the quote.
        let named = post.identified(by: { uris[$0] }, seenOn: ["akkoma.example"])
        #expect(named.quotedID == "https://mastodon.social/users/alice/statuses/113")
        #expect(named.quoted?.id == "https://mastodon.social/users/alice/statuses/113")
    }
}

/// A status written as a server sends it, read as the client reads it.
func statusJSON(_ json: String) throws -> JSONValue {
    var reader = JSONItemReader(bytes: Array(json.utf8))
    guard case .item(let item)? = reader.next() else { throw MastodonDecodingError.missing("JSON") }
    return item.value
}
