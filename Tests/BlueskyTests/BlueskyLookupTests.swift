import Foundation
import HTTPExchange
import StubBluesky
import StubServer
import Testing

@testable import Bluesky
@testable import Posts

/// Issue 51: which kept posts Bluesky still has, 25 URIs a `getPosts`, signed in or on the public AppView.
struct BlueskyLookupTests {
    private func client(_ port: Int, signedIn: Bool) -> BlueskyClient {
        let credentials = BlueskyConfiguration.Credentials(
            handle: StubBluesky.handle, appPassword: BearerToken(StubBluesky.appPassword))
        return BlueskyClient(
            configuration: BlueskyConfiguration(
                service: "http://127.0.0.1:\(port)", credentials: signedIn ? credentials : nil, sessionFile: nil))
    }

    @Test(arguments: [true, false]) func postsMissingFromGetPostsAreGone(signedIn: Bool) async throws {
        try await StubBluesky.run { stub, port in
            let all = (1...30).map { StubBluesky.Post(second: $0) }
            stub.serve(all.filter { $0.second % 4 != 0 })
            let client = client(port, signedIn: signedIn)
            var gone = Set<String>()
            for start in stride(from: 0, to: all.count, by: client.lookupBatch) {
                let batch = all[start..<min(start + client.lookupBatch, all.count)].map(\.uri)
                gone.formUnion(try await client.gone(among: batch))
            }
            #expect(gone == Set(all.filter { $0.second % 4 == 0 }.map(\.uri)))
            let asked = stub.requests.filter { $0.contains("getPosts") }
            #expect(asked.count == 2, "25 a request")
            let repost = "at://did:plc:alice/app.bsky.feed.repost/3k7qmjev5lr2s"
            #expect(try await client.gone(among: [repost]).isEmpty, "a repost's record is not asked about")
            #expect(stub.requests.filter { $0.contains("getPosts") }.count == 2)
        }
    }

    @Test func aServiceThatFailsDeletesNothing() async throws {
        try await StubBluesky.run { stub, port in
            stub.fail(with: .init(status: 502, body: "<html>Bad Gateway</html>"))
            await #expect(throws: BlueskyError.self) {
                try await client(port, signedIn: false).gone(among: [StubBluesky.Post(second: 1).uri])
            }
        }
    }
}
