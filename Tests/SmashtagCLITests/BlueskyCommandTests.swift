import Foundation
import StubBluesky
import Testing

/// `smashtag search --source bluesky` against a local stand-in for Bluesky's service: pages exactly, keeps its
/// session, and says what is missing without credentials.
@Suite(.serialized) struct BlueskyCommandTests {
    private func search(
        _ arguments: [String], port: Int, directory: String, signedIn: Bool = true
    ) async throws -> SmashtagRun {
        var environment = ["SMASHTAG_BLUESKY_SERVICE": "http://127.0.0.1:\(port)"]
        if signedIn {
            environment["SMASHTAG_BLUESKY_HANDLE"] = StubBluesky.handle
            environment["SMASHTAG_BLUESKY_APP_PASSWORD"] = StubBluesky.appPassword
        }
        return try await SmashtagRun.run(["search"] + arguments + ["--data-dir", directory], environment: environment)
    }

    private func posts(_ run: SmashtagRun) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(document["tweets"] as? [[String: Any]])
    }

    @Test func pagesExactlyWithNetworkAndPermalinkAndOneSession() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubBluesky.run { stub, port in
            stub.serve((1...50).map { StubBluesky.Post(second: $0, tags: ["tag"]) })
            var seen: [String] = []
            for paging in [[], ["--older"], ["--older"]] {
                let run = try await search(
                    ["#tag", "--source", "bluesky", "--format", "json", "--count", "20"] + paging, port: port,
                    directory: directory)
                #expect(run.status == 0, "\(run.stderr)")
                let page = try posts(run)
                #expect(
                    page.allSatisfy {
                        $0["network"] as? String == "bluesky"
                            && ($0["url"] as? String)?.hasPrefix("https://bsky.app/profile/alice.bsky.social/post/")
                                == true
                    })
                seen += page.compactMap { $0["id"] as? String }
            }
            #expect(seen == (1...50).reversed().map { StubBluesky.Post(second: $0).uri })
            stub.serve((1...53).map { StubBluesky.Post(second: $0, tags: ["tag"]) })
            let newer = try await search(
                ["#tag", "--source", "bluesky", "--format", "json", "--newer"], port: port, directory: directory)
            #expect(
                try posts(newer).compactMap { $0["id"] as? String }
                    == (51...53).reversed().map { StubBluesky.Post(second: $0).uri })
            #expect(stub.sessionsCreated == 1, "later runs renew the session kept in the data directory")
            let kept = try FileManager.default.attributesOfItem(atPath: directory + "/bluesky-session")
            #expect((kept[.posixPermissions] as? Int) == 0o600)
            let popularity = try await SmashtagRun.run([
                "popularity", "#tag", "--data-dir", directory, "--format", "json",
            ])
            let table = try #require(
                try JSONSerialization.jsonObject(with: Data(popularity.stdout.utf8)) as? [String: Any])
            let counts = ((table["hashtags"] as? [[String: Any]] ?? []) + (table["users"] as? [[String: Any]] ?? []))
                .reduce(into: [String: Int]()) { $0[$1["mention"] as? String ?? ""] = $1["count"] as? Int }
            #expect(counts["#tag"] == 53, "every Bluesky post counted once: \(counts)")
        }
    }

    @Test func withoutCredentialsItSaysWhichTwoVariablesToSetWhileTheCorpusAnswers() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        _ = try await SmashtagRun.run(["corpus", "generate", "--tweets", "400", "--data-dir", directory])
        try await StubBluesky.run { _, port in
            let alone = try await search(
                ["#stanford", "--source", "bluesky"], port: port, directory: directory, signedIn: false)
            #expect(alone.status != 0)
            #expect(
                alone.stderr.hasPrefix(
                    """
                    smashtag: Bluesky search needs a signed-in account: set SMASHTAG_BLUESKY_HANDLE and \
                    SMASHTAG_BLUESKY_APP_PASSWORD
                    """
                ))
            let merged = try await search(
                ["#stanford", "--source", "corpus,bluesky", "--format", "json"], port: port, directory: directory,
                signedIn: false)
            #expect(merged.status == 0 && merged.stderr.contains("needs a signed-in account"))
            #expect(try !posts(merged).isEmpty)
        }
    }
}
