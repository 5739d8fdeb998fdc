import AppStore
import Corpus
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Posts
import SmashtagApp
import TestSupport
import Testing

@testable import SmashtagWeb

/// The conversation networks on the Network page and in its exports, and the Popularity page's conversations: who
/// replies to, quotes and reposts whom among a term's posts, from a corpus with hostile names.
struct ConversationPageTests {
    static let tag = "convtest"
    static func id(_ n: Int) -> String { String(1_960_000_000_000_000_000 + n) }

    /// Bob and carol reply to alice's post 1, bob twice (posts 2 and 4); dave quotes post 1; erin reposts bob's
    /// post 2; a reply to `<b>mal</b>`… whose handle is hostile.
    static var posts: [Post] {
        func post(
            _ n: Int, by handle: String, replyingTo parent: Int? = nil, to user: String? = nil, quoting: Post? = nil,
            repostedBy: String? = nil
        ) -> Post {
            let text = "post \(n) #\(tag)"
            return Post(
                id: id(n), created: Date(timeIntervalSince1970: 1_780_000_000 + Double(n)),
                author: TestPosts.author(handle), text: text, mentions: TestPosts.mentions(in: text),
                repostedBy: repostedBy.map(TestPosts.author), quoted: quoting, inReplyToID: parent.map(id),
                inReplyToUser: user)
        }
        let root = post(1, by: "alice")
        return [
            root, post(2, by: "bob", replyingTo: 1, to: "alice"), post(3, by: "carol", replyingTo: 1, to: "alice"),
            post(4, by: "bob", replyingTo: 1, to: "alice"), post(5, by: "dave", quoting: root),
            post(6, by: "bob", repostedBy: "erin"), post(7, by: "carol", replyingTo: 8, to: "<b>mal</b>"),
        ]
    }

    static func application() async throws -> (some ApplicationProtocol, Site) {
        let directory = try await WebFixture.dataDirectory()
        _ = try await SQLiteCorpus.open(at: DataDirectory(path: directory).corpus).add(posts)
        return try await WebFixture.application(in: directory)
    }

    private static let network = "/recents/popularity/network?term=%23\(tag)"
    private static let export = "/api/popularity/network?term=%23\(tag)"

    @Test func theNetworkPageOffersEachKindAndDrawsArrows() async throws {
        let (app, _) = try await Self.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=%23\(Self.tag)", method: .get)
            let named = try await client.execute(uri: Self.network, method: .get).text
            #expect(named.contains(#"<nav class="buckets network-kinds" aria-label="Network">"#))
            #expect(named.contains(#"aria-current="page">Named together</a>"#))
            #expect(named.contains("kind=replies") && !named.contains("marker-end"))
            let page = try await client.execute(uri: Self.network + "&kind=replies", method: .get)
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains(#"aria-current="page">Replies</a>"#))
            #expect(html.contains("<caption>Who replies to whom</caption>"))
            #expect(
                html.components(separatedBy: #"marker-end="url(#arrow)""#).count == 4,
                "bob and carol to alice, carol on")
            #expect(html.contains(#"<input type="hidden" name="kind" value="replies">"#))
            #expect(html.contains("<tr><td>") && html.contains(">@bob</a></td><td>"))
            #expect(html.contains(#"aria-label="@alice: 3 posts""#), "sized by the replies received")
            #expect(html.contains("&lt;b&gt;mal&lt;/b&gt;") && !html.contains("<b>mal</b>"))
            #expect(!html.contains("GEXF by day"), "a timeline is for co-mentions")
            #expect(html.contains("from who replies to whom"))
            let quotes = try await client.execute(uri: Self.network + "&kind=quotes", method: .get).text
            #expect(quotes.contains(">@dave</a></td><td>") && quotes.contains("<caption>Who quotes whom</caption>"))
            let reposts = try await client.execute(uri: Self.network + "&kind=reposts", method: .get).text
            #expect(reposts.contains(">@erin</a></td><td>"))
        }
    }

    @Test func exportsCarryTheKindAndTheDirection() async throws {
        let (app, _) = try await Self.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=%23\(Self.tag)", method: .get)
            let json = try await client.execute(uri: Self.export + "&kind=replies", method: .get).text
            #expect(json.contains(#""kind":"replies""#))
            #expect(json.contains(#"{"source":"@bob","target":"@alice","weight":2}"#))
            let csv = try await client.execute(uri: Self.export + "&kind=replies&format=csv", method: .get)
            #expect(csv.headers[.contentDisposition]?.contains("replies-convtest-all.csv") == true)
            #expect(csv.text.hasPrefix("source,target,kind,weight\r\n'@bob,'@alice,reply,2\r\n"))
            let gexf = try await client.execute(uri: Self.export + "&kind=quotes&format=gexf", method: .get).text
            #expect(gexf.contains(#"<graph defaultedgetype="directed""#) && gexf.contains("Who quotes whom"))
            let bad = try await client.execute(uri: Self.export + "&kind=likes", method: .get)
            #expect(
                bad.status == .badRequest && bad.text.contains("kind must be mentions, replies, quotes or reposts."))
            let timed = try await client.execute(uri: Self.export + "&kind=replies&format=gexf&by=day", method: .get)
            #expect(timed.status == .badRequest && timed.text.contains("(kind=mentions) only"))
        }
    }

    @Test func thePopularityPageListsTheMostRepliedToAndQuotedPostsAndWhoStartsConversations() async throws {
        let (app, _) = try await Self.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=%23\(Self.tag)", method: .get)
            let html = try await client.execute(uri: "/recents/popularity?term=%23\(Self.tag)", method: .get).text
            #expect(html.contains("<h2>Most replied to</h2>") && html.contains("<h2>Most quoted</h2>"))
            #expect(html.contains("href=\"/recents/thread/twitter/\(Self.id(1))?back="))
            #expect(html.contains(#"<span class="name">@alice’s post</span>"#))
            #expect(html.contains(#"<span class="count">3 replies</span>"#))
            #expect(html.contains(#"<span class="count">1 quote</span>"#))
            #expect(html.contains("<h2>Who starts conversations</h2>"))
            #expect(html.contains(#"<span class="count">1 post drew 3 replies</span>"#))
            #expect(html.contains("&lt;b&gt;mal&lt;/b&gt;’s post"))
        }
    }

    @Test func theConversationsAreJSONToo() async throws {
        let (app, _) = try await Self.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=%23\(Self.tag)", method: .get)
            let uri = "/api/popularity/conversations?term=%23\(Self.tag)"
            let answer = try await client.execute(uri: uri + "&limit=1", method: .get)
            #expect(answer.status == .ok)
            let document = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]
            let replied = document?["mostRepliedTo"] as? [[String: Any]]
            #expect(document?["term"] as? String == "#\(Self.tag)" && replied?.count == 1)
            #expect(replied?.first?["id"] as? String == Self.id(1) && replied?.first?["count"] as? Int == 3)
            #expect(
                replied?.first?["network"] as? String == "twitter" && replied?.first?["author"] as? String == "@alice")
            let starters = document?["starters"] as? [[String: Any]]
            #expect(starters?.first?["user"] as? String == "@alice" && starters?.first?["replies"] as? Int == 3)
            let bad = try await client.execute(uri: uri + "&limit=0", method: .get)
            #expect(bad.status == .badRequest && bad.text.contains("limit must be a number from 1 to 100."))
            let missing = try await client.execute(uri: "/api/popularity/conversations?term=never", method: .get)
            #expect(missing.status == .notFound && missing.text.contains("“never” is not in Recents"))
        }
    }
}
