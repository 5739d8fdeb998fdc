import FixtureFolders
import Foundation
import HTTPExchange
import StubBluesky
import StubServer
import Testing

@testable import Bluesky
@testable import Posts

/// A post's thread from `app.bsky.feed.getPostThread` on the public AppView: the recorded answer, and a stand-in that
/// answers in the lexicon's shapes (`#threadViewPost`, `#notFoundPost`, `#blockedPost`).
struct BlueskyThreadTests {
    private func client(_ port: Int) -> BlueskyClient {
        BlueskyClient(
            configuration: BlueskyConfiguration(
                service: "http://127.0.0.1:\(port)", credentials: nil, sessionFile: nil))
    }

    @Test func theThreadIsItsParentsAboveAndItsRepliesAsATree() async throws {
        try await StubBluesky.run { stub, port in
            let root = StubBluesky.Post(second: 1)
            let gone = StubBluesky.Post(second: 2, parent: root.uri)  // not served: deleted
            let post = StubBluesky.Post(second: 3, author: "bob.bsky.social", parent: gone.uri)
            let first = StubBluesky.Post(second: 4, parent: post.uri)
            let blocked = StubBluesky.Post(second: 5, author: "eve.bsky.social", parent: post.uri, isBlocked: true)
            let deep = (6...12).map { StubBluesky.Post(second: $0, parent: $0 == 6 ? first.uri : nil) }
            var chain = [deep[0]]
            for post in deep.dropFirst() {
                chain.append(StubBluesky.Post(second: post.second, parent: chain.last!.uri))
            }
            let last = StubBluesky.Post(second: 12, parent: chain[5].uri, replyCount: 3)
            stub.serve([root, post, first, blocked] + chain.dropLast() + [last])
            let thread = try #require(
                try await client(port).thread(
                    of: PostKey(network: .bluesky, id: post.uri), after: nil, limits: ThreadLimits()))
            guard case .unavailable(gone.uri, .notFound)? = thread.ancestors.first else {
                Issue.record("the deleted parent is a row, and the chain ends there: \(thread.ancestors)")
                return
            }
            #expect(thread.ancestors.count == 1)
            #expect(thread.post.author.handle == "bob.bsky.social")
            #expect(thread.replies.map(\.item.id) == [first.uri, blocked.uri])
            guard case .unavailable(_, .blocked) = thread.replies[1].item else {
                Issue.record("a blocked reply is a row saying so")
                return
            }
            // first (1) → 6 (2) → 7 (3) → 8 (4): four levels shown, 8's reply counted.
            let fourth = thread.replies[0].replies.first?.replies.first?.replies.first
            #expect(fourth?.item.id == chain[2].uri && fourth?.moreReplies == 1)
            #expect(stub.requests.first?.contains("depth=4") == true)
            #expect(stub.requests.first?.contains("parentHeight=1000") == true)
        }
    }

    @Test func aPostBlueskyDoesNotHaveIsNoThread() async throws {
        try await StubBluesky.run { stub, port in
            let missing = StubBluesky.Post(second: 9).uri
            let thread = try await client(port).thread(
                of: PostKey(network: .bluesky, id: missing), after: nil, limits: ThreadLimits())
            #expect(thread == nil)
            stub.fail(with: StubFailure(status: 502, body: "Bad Gateway"))
            let failure = await #expect(throws: BlueskyError.self) {
                try await client(port).thread(
                    of: PostKey(network: .bluesky, id: missing), after: nil, limits: ThreadLimits())
            }
            #expect(failure?.description.contains("status 502") == true)
        }
    }

    @Test(.enabled(if: BlueskyFixtures.isPresent, "../shared/fixtures/bluesky is absent"))
    func theRecordedAnswerIsAThread() async throws {
        let file = BlueskyFixtures.folder.root.appendingPathComponent("bskyr/f_postthread__0.json")
        let recorded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let body = try #require(recorded["body"] as? [String: Any])
        let uri = try #require(((body["thread"] as? [String: Any])?["post"] as? [String: Any])?["uri"] as? String)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        try await StubBluesky.run { stub, port in
            stub.fail(with: StubFailure(status: 200, body: text))
            let thread = try #require(
                try await client(port).thread(of: PostKey(network: .bluesky, id: uri), after: nil, limits: .init()))
            #expect(thread.post.id == uri)
            #expect(thread.post.author.handle == "soubhikbarari.bsky.social")
            #expect(thread.ancestors.isEmpty && thread.replies.isEmpty && thread.moreReplies == 0)
        }
    }
}
