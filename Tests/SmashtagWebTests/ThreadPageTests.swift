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

/// A post's thread page and its JSON twin, from the corpus: the chain above, the post marked, the replies as a tree,
/// a reply's own thread linked from the Search page and the Mentions page, paging, and what a visitor may not see.
struct ThreadPageTests {
    static let tag = "threadtest"
    static func id(_ n: Int) -> String { String(1_950_000_000_000_000_000 + n) }

    /// 1 ← 2 ← 3 (hostile text) and 4; 2 has 60 more replies; a Bluesky reply to 2 is for people signed in.
    static var posts: [Post] {
        func post(_ n: Int, _ text: String, replyingTo parent: Int?, by handle: String = "alice") -> Post {
            Post(
                id: id(n), created: Date(timeIntervalSince1970: 1_780_000_000 + Double(n)),
                author: TestPosts.author(handle), text: text, mentions: TestPosts.mentions(in: text),
                inReplyToID: parent.map(id))
        }
        return [
            post(1, "the root #\(tag)", replyingTo: nil),
            post(2, "the answer #\(tag)", replyingTo: 1, by: "bob"),
            post(3, "<script>alert(1)</script> #\(tag)", replyingTo: 2, by: "carol"),
            post(4, "a second reply", replyingTo: 2, by: "dave"),
        ] + (100..<160).map { post($0, "reply \($0) #more", replyingTo: 2, by: "erin") }
    }

    static func application() async throws -> (some ApplicationProtocol, Site) {
        let directory = try await WebFixture.dataDirectory()
        _ = try await SQLiteCorpus.open(at: DataDirectory(path: directory).corpus).add(posts)
        return try await WebFixture.application(in: directory)
    }

    @Test func aThreadShowsTheChainThePostAndItsRepliesAsATree() async throws {
        let (app, _) = try await Self.application()
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/search/thread/twitter/\(Self.id(2))", method: .get)
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains("From the corpus."))
            #expect(html.contains(#"class="posts thread-above""#) && html.contains("the root"))
            #expect(html.contains(#"class="post focus" aria-current="true""#))
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !html.contains("<script>alert(1)"))
            #expect(html.contains(#"href="/search/thread/twitter/\#(Self.id(3))?back="#), "a reply opens its thread")
            #expect(html.contains("12 more replies"), "62 replies: 50 on this page")
            #expect(html.contains("after=\(Self.id(147))"))

            let next = try await client.execute(
                uri: "/search/thread/twitter/\(Self.id(2))?after=\(Self.id(147))", method: .get)
            let rest = String(buffer: next.body)
            #expect(rest.contains("reply 148") && rest.contains("reply 159") && !rest.contains("reply 147"))
            #expect(!rest.contains("more replies"))
        }
    }

    @Test func theSearchPageAndTheMentionsPageOpenTheThread() async throws {
        let (app, _) = try await Self.application()
        try await app.test(.router) { client in
            let search = String(buffer: try await client.execute(uri: "/search?q=%23\(Self.tag)", method: .get).body)
            #expect(search.contains(#"<a class="thread" href="/search/thread/twitter/\#(Self.id(2))"#))
            #expect(!search.contains(#"href="/search/thread/twitter/\#(Self.id(1))"#), "the root answers nothing")
            _ = try await client.execute(uri: "/search?q=%23\(Self.tag)", method: .get)
            let mentions = try await client.execute(uri: "/search/posts/twitter/\(Self.id(1))", method: .get)
            #expect(String(buffer: mentions.body).contains(#"href="/search/thread/twitter/\#(Self.id(1))?back="#))
            // A corpus post no search kept (reached through a thread) has its Mentions page too, and the thread
            // about it links there.
            let unkept = try await client.execute(uri: "/search/posts/twitter/\(Self.id(150))", method: .get)
            #expect(unkept.status == .ok)
            let thread = try await client.execute(uri: "/search/thread/twitter/\(Self.id(150))", method: .get)
            #expect(
                String(buffer: thread.body).contains(#"<a class="row" href="/search/posts/twitter/\#(Self.id(150))"#))
        }
    }

    @Test func theJSONTwinIsTheSameTreeAndAMissingPostIsOneSentence() async throws {
        let (app, _) = try await Self.application()
        try await app.test(.router) { client in
            let answer = try await client.execute(uri: "/api/threads/twitter/\(Self.id(2))", method: .get)
            #expect(answer.status == .ok)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
            let ancestors = try #require(json["ancestors"] as? [[String: Any]])
            #expect((ancestors.first?["post"] as? [String: Any])?["id"] as? String == Self.id(1))
            let replies = try #require(json["replies"] as? [[String: Any]])
            #expect(replies.count == 50 && json["moreReplies"] as? Int == 12)
            #expect(json["next"] as? String == "/api/threads/twitter/\(Self.id(2))?after=\(Self.id(147))")
            #expect(json["source"] as? String == "the corpus")

            let missing = try await client.execute(uri: "/api/threads/twitter/\(Self.id(999))", method: .get)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains("The corpus has no such post"))
            let empty = try await client.execute(uri: "/api/threads/twitter/\(Self.id(2))?after=", method: .get)
            #expect(empty.status == .badRequest && empty.text.contains("cannot be empty"))
            let page = try await client.execute(uri: "/search/thread/twitter/\(Self.id(999))", method: .get)
            #expect(page.status == .notFound && String(buffer: page.body).contains("The corpus has no such post"))
        }
    }
}
