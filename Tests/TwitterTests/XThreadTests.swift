import Foundation
import HTTPExchange
import Posts
import StubXAPI
import Testing

@testable import Twitter

/// A post's thread on X: the post's `conversation_id`, the conversation searched with `conversation_id:`, paged, and a
/// parent older than the search's seven days looked up by id; against a stand-in answering in X API v2's formats.
struct XThreadTests {
    /// 100 ← 101 ← 102 (the post) ← 103, 104; 105 answers 103. 100 is older than the search reaches.
    private static func tweet(_ n: Int, replyingTo parent: Int?) -> String {
        let reference = parent.map {
            #","referenced_tweets":[{"type":"replied_to","id":"\#(1_800_000_000_000_000_000 + $0)"}]"#
        }
        return #"""
            {"id":"\#(1_800_000_000_000_000_000 + n)","text":"tweet \#(n)","author_id":"42",\#
            "created_at":"2026-11-2\#(n % 10)T10:00:00.000Z","conversation_id":"1800000000000000100"\#(reference ?? "")}
            """#
    }

    private static func document(_ tweets: [String], next: String? = nil) -> String {
        let meta = next.map { #","meta":{"result_count":2,"next_token":"\#($0)"}"# } ?? #","meta":{"result_count":1}"#
        return
            #"{"data":[\#(tweets.joined(separator: ","))],"#
            + #""includes":{"users":[{"id":"42","username":"ann","name":"Ann"}]}\#(meta)}"#
    }

    @Test func theConversationSearchAndALookedUpParentMakeTheThread() async throws {
        try await StubXAPI.run { stub, port in
            stub.answer { received in
                let ids = received.parameters["ids"]
                if received.path == "/2/tweets", let ids, let n = Int(ids.suffix(3)) {
                    guard n >= 100 && n <= 105 else {
                        return .init(
                            json:
                                #"{"errors":[{"resource_id":"\#(ids)","resource_type":"tweet","#
                                + #""type":"https://api.twitter.com/2/problems/resource-not-found"}]}"#
                        )
                    }
                    return .init(
                        json: Self.document([
                            Self.tweet(
                                n, replyingTo: n == 100 ? nil : n == 103 || n == 104 ? 102 : n == 105 ? 103 : n - 1)
                        ]))
                }
                if received.parameters["next_token"] == "page2" {
                    return .init(json: Self.document([Self.tweet(101, replyingTo: 100)]))
                }
                return .init(
                    json: Self.document(
                        [
                            Self.tweet(105, replyingTo: 103), Self.tweet(104, replyingTo: 102),
                            Self.tweet(103, replyingTo: 102), Self.tweet(102, replyingTo: 101),
                        ],
                        next: "page2"))
            }
            let client = XAPIClient(
                configuration: XAPIConfiguration(token: BearerToken("t0ken"), baseURL: "http://127.0.0.1:\(port)/"))
            let key = PostKey(network: .twitter, id: "1800000000000000102")
            let thread = try #require(try await client.thread(of: key, after: nil, limits: ThreadLimits()))
            #expect(thread.ancestors.map { String($0.id.suffix(3)) } == ["100", "101"])
            #expect(thread.replies.map { String($0.item.id.suffix(3)) } == ["103", "104"])
            #expect(thread.replies.first?.replies.map { String($0.item.id.suffix(3)) } == ["105"])
            #expect(thread.notes == ["X's search reaches back seven days: older replies are not shown."])
            let searches = stub.received.filter { $0.path == "/2/tweets/search/recent" }
            #expect(searches.first?.parameters["query"] == "conversation_id:1800000000000000100")
            #expect(searches.count == 2, "the conversation paged")
            #expect(stub.received.first?.parameters["tweet.fields"]?.contains("conversation_id") == true)
            #expect(
                stub.received.filter { $0.path == "/2/tweets" }.count == 2,
                "the post, then the parent the search missed")

            // A post that began its conversation: its replies are the conversation.
            let root = try #require(
                try await client.thread(
                    of: PostKey(network: .twitter, id: "1800000000000000100"), after: nil, limits: ThreadLimits()))
            #expect(root.ancestors.isEmpty && root.replies.map { String($0.item.id.suffix(3)) } == ["101"])
            #expect(root.shownPosts.count == 6)

            let missing = try await client.thread(
                of: PostKey(network: .twitter, id: "1800000000000000999"), after: nil, limits: ThreadLimits())
            #expect(missing == nil)
        }
    }
}
