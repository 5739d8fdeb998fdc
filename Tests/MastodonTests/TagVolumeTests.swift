import Foundation
import Posts
import StubMastodon
import StubServer
import Testing
import WireJSON

@testable import Mastodon

/// Issue 53: a hashtag's volume before collecting, from the server's Tag `history`, said as that server's view.
struct TagVolumeTests {
    private static func client(_ port: Int) -> MastodonClient {
        MastodonClient(configuration: MastodonConfiguration(instance: "http://127.0.0.1:\(port)"))
    }

    @Test func aTagsHistoryIsItsVolumeOldestDayFirst() async throws {
        try await StubMastodon.run { stub, port in
            stub.serveHistory(
                of: "swift",
                [
                    .init(day: 1_669_507_200, uses: 56, accounts: 53),
                    .init(day: 1_669_420_800, uses: 171, accounts: 142),
                    .init(day: 1_669_334_400, uses: 11, accounts: 11),
                ])
            let volume = try #require(try await Self.client(port).volume(of: "#Swift"))
            #expect(volume.posts == 238)
            #expect(volume.days.map(\.posts) == [11, 171, 56] && volume.days.map(\.accounts) == [11, 142, 53])
            #expect(volume.days.first?.start == Date(timeIntervalSince1970: 1_669_334_400))
            #expect(volume.limits.contains("as 127.0.0.1:\(port) saw them in its last 7 days"))
            #expect(stub.requests == ["/api/v1/tags/swift"])
        }
    }

    @Test func aTagTheServerHasNeverSeenIsNothingAndOtherQueriesAreNotCounted() async throws {
        try await StubMastodon.run { stub, port in
            #expect(try await Self.client(port).volume(of: "#never")?.days == [])
            let either = try await Self.client(port).volume(of: "#a OR #b")
            let user = try await Self.client(port).volume(of: "from:alice")
            #expect(either == nil && user == nil)
            #expect(stub.requests == ["/api/v1/tags/never"], "only one hashtag is asked for")
        }
    }

    @Test func aFailingServerIsNamedInItsSentence() async throws {
        try await StubMastodon.run { stub, port in
            stub.fail(with: StubFailure(status: 500))
            await #expect {
                try await Self.client(port).volume(of: "#swift")
            } throws: { error in
                (error as? MastodonError)?.description.hasPrefix("Mastodon (127.0.0.1:\(port))") == true
            }
        }
    }

    /// The Tag entity as Mastodon's documentation shows it (../shared/fixtures), when it is there.
    @Test(.enabled(if: MastodonFixtures.isPresent, "../shared/fixtures/mastodon is absent"))
    func theDocumentedTagEntityReads() throws {
        let file = try #require(MastodonFixtures.files.first { $0.hasSuffix("entities_Tag__Example_0.json") })
        let example = try #require(
            try JSONValue.document(Array(Data(contentsOf: URL(fileURLWithPath: file))))["example"])
        let days = try TagHistory.days(of: example)
        #expect(days.count == 7 && days.allSatisfy { $0.posts >= 0 && $0.accounts != nil })
    }
}
