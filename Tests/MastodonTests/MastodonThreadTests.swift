import Foundation
import Mastodon
import Posts
import StubMastodon
import StubServer
import Testing

/// A post's thread from its server's `statuses/:id/context`, against a stand-in that answers in Mastodon's formats.
struct MastodonThreadTests {
    private static func client(_ port: Int) -> MastodonClient {
        MastodonClient(configuration: MastodonConfiguration(instance: "http://127.0.0.1:\(port)"))
    }

    private static func key(_ id: Int) -> PostKey { PostKey(network: .mastodon, id: String(id)) }

    @Test func theContextIsTheThreadAncestorsAboveAndDescendantsAsATree() async throws {
        try await StubMastodon.run { stub, port in
            stub.serve([
                .init(id: 1), .init(id: 2, author: "bob", replyingTo: 1), .init(id: 3, replyingTo: 2),
                .init(id: 5, author: "carol", replyingTo: 3), .init(id: 4, replyingTo: 2),
                .init(id: 6, replyingTo: 5, repliesCount: 7), .init(id: 7, replyingTo: 1),
            ])
            let thread = try #require(try await Self.client(port).thread(of: Self.key(2), after: nil, limits: .init()))
            #expect(thread.ancestors.map(\.id) == ["1"])
            #expect(thread.post.author.handle == "bob@stub.example")
            #expect(thread.replies.map(\.item.id) == ["3", "4"])
            #expect(thread.replies[0].replies.map(\.item.id) == ["5"])
            #expect(thread.replies[0].replies[0].replies.first?.moreReplies == 7, "what replies_count says")
            #expect(thread.source == "Mastodon (127.0.0.1:\(port))")
            #expect(stub.requests == ["/api/v1/statuses/2", "/api/v1/statuses/2/context"])
        }
    }

    @Test func aDeletedPostIsNoThreadAndAFailureIsOneSentence() async throws {
        try await StubMastodon.run { stub, port in
            stub.serve([.init(id: 1)])
            let client = Self.client(port)
            let missing = try await client.thread(of: Self.key(404), after: nil, limits: .init())
            #expect(missing == nil)
            let foreign = try await client.thread(of: PostKey(network: .twitter, id: "1"), after: nil, limits: .init())
            #expect(foreign == nil, "not its network")
            stub.fail(
                with: StubMastodon.Failure(status: 401, body: #"{"error":"This API requires an authenticated user"}"#))
            let failure = await #expect(throws: MastodonError.self) {
                try await Self.client(port).thread(of: Self.key(1), after: nil, limits: .init())
            }
            #expect(failure?.description.contains("signed-in users") == true, "\(failure?.description ?? "")")
            stub.fail(with: StubMastodon.Failure(status: 200, body: "<html><body>Welcome</body></html>"))
            let page = await #expect(throws: MastodonError.self) {
                try await Self.client(port).thread(of: Self.key(1), after: nil, limits: .init())
            }
            #expect(page?.description.contains("web page") == true)
        }
    }
}
