import Foundation
import HTTPExchange
import Posts
import StubXAPI
import Testing

@testable import Twitter

/// Issue 53: a query's volume before collecting, from the X API's `counts/recent` by day.
struct XVolumeTests {
    @Test func aQuerysCountsByDayAreItsVolume() async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(
                .init(
                    json: """
                        {"data":[{"end":"2026-11-22T00:00:00.000Z","start":"2026-11-21T14:02:00.000Z",\
                        "tweet_count":12},\
                        {"end":"2026-11-23T00:00:00.000Z","start":"2026-11-22T00:00:00.000Z","tweet_count":1200}],\
                        "meta":{"total_tweet_count":1212}}
                        """))
            let volume = try #require(try await XAPIClient.stub(port).volume(of: "#swift -is:retweet"))
            #expect(volume.posts == 1_212 && volume.days.map(\.posts) == [12, 1_200])
            #expect(volume.days.allSatisfy { $0.accounts == nil } && volume.limits.contains("last 7 days"))
            let asked = try #require(stub.received.first)
            #expect(asked.path == "/2/tweets/counts/recent")
            #expect(asked.parameters == ["query": "#swift -is:retweet", "granularity": "day"])
            #expect(asked.headers["authorization"] == "Bearer t0ken")
        }
    }

    @Test func anAccessLevelWithoutCountsIsSaidAsTheAPISaysIt() async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(
                .init(
                    status: 403,
                    json: #"{"title":"Client Forbidden","detail":"This endpoint requires a different access level."}"#))
            await #expect {
                try await XAPIClient.stub(port).volume(of: "#swift")
            } throws: { error in
                "\(error)".contains("different access level")
            }
        }
    }

    /// twarc2 `counts` saves the API's documents a line each (../shared/fixtures), when they are there.
    @Test(.enabled(if: SharedFixtures.isPresent, "../shared/fixtures is absent"))
    func twarcsRecordedCountsRead() throws {
        let file = SharedFixtures.root.appendingPathComponent("twitter-v2/twarc-csv/counts.jsonl")
        let first = try #require(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").first)
        let days = try XPostCounts.days(in: Array(first.utf8))
        #expect(!days.isEmpty && days.allSatisfy { $0.posts >= 0 })
        #expect(days.first?.posts == 3_961)
    }
}

extension XAPIClient {
    /// A client of the stand-in X API on `port`, with the token `t0ken`.
    static func stub(_ port: Int) -> XAPIClient {
        XAPIClient(configuration: XAPIConfiguration(token: BearerToken("t0ken"), baseURL: "http://127.0.0.1:\(port)/"))
    }
}
