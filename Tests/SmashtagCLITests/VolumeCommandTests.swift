import Foundation
import StubMastodon
import Testing

/// `smashtag volume TERM`: what each configured network says there is before collecting, said as its own view.
@Suite struct VolumeCommandTests {
    @Test func aHashtagsDaysArePrintedAsTheServerSawThem() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            mastodon.serveHistory(
                of: "swift",
                [
                    .init(day: 1_764_288_000, uses: 4, accounts: 1),
                    .init(day: 1_764_201_600, uses: 1_171, accounts: 142),
                ])
            let environment = ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"]
            let text = try await SmashtagRun.run(
                ["volume", "#swift", "--data-dir", directory], environment: environment)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(
                text.stdout == """
                    Mastodon (127.0.0.1:\(port)): 1,175 posts, as 127.0.0.1:\(port) saw them in its last 7 days (a \
                    server counts only the posts that reach it).
                      2025-11-27  1,171 posts by 142 accounts
                      2025-11-28  4 posts by 1 account

                    """)
            let json = try await SmashtagRun.run(
                ["volume", "#swift", "--format", "json", "--data-dir", directory], environment: environment)
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let volume = try #require((document["volumes"] as? [[String: Any]])?.first)
            #expect(volume["source"] as? String == "mastodon" && volume["posts"] as? Int == 1_175)
            #expect((volume["days"] as? [[String: Any]])?.first?["start"] as? String == "2025-11-27T00:00:00Z")
        }
    }

    @Test func withoutANetworkThatCountsItSaysWhatToSet() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let none = try await SmashtagRun.run(["volume", "#swift", "--data-dir", directory])
        #expect(none.status == 1 && none.stderr.contains("set SMASHTAG_MASTODON_INSTANCE"), "\(none.stderr)")
        let words = try await SmashtagRun.run(
            ["volume", "swift OR rust", "--data-dir", directory],
            environment: ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:9"])
        #expect(words.status == 1)
        #expect(words.stderr.contains("cannot count “swift OR rust”: Mastodon counts one hashtag at a time (#tag)."))
    }
}
