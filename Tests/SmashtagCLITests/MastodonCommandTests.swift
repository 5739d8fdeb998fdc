import Foundation
import StubMastodon
import Testing

/// `smashtag search --source mastodon` (alone and merged with the corpus) against a local stand-in for a Mastodon
/// server.
@Suite(.serialized) struct MastodonCommandTests {
    private func search(
        _ query: String, port: Int, directory: String, _ arguments: String...
    ) async throws -> SmashtagRun {
        try await SmashtagRun.run(
            ["search", query, "--data-dir", directory] + arguments,
            environment: ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"])
    }

    /// A data directory with a small demo corpus: the default 20,000 tweets would cost every test seconds of CPU.
    private func smallCorpus() async throws -> String {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(["corpus", "generate", "--tweets", "400", "--data-dir", directory])
        #expect(run.status == 0, "\(run.stderr)")
        return directory
    }

    private func posts(_ run: SmashtagRun) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(document["tweets"] as? [[String: Any]])
    }

    @Test func pagesExactlyWithNetworkAndPermalinkOnEveryPost() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { stub, port in
            stub.serve((1...50).map { StubMastodon.Status(id: $0, tags: ["tag"]) })
            var seen: [String] = []
            var last: [[String: Any]] = []
            for arguments in [[], ["--older"], ["--older"]] {
                let run = try await SmashtagRun.run(
                    [
                        "search", "#tag", "--data-dir", directory, "--source", "mastodon", "--format", "json",
                        "--count", "20",
                    ] + arguments,
                    environment: ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"])
                #expect(run.status == 0, "\(run.stderr)")
                last = try posts(run)
                seen += last.compactMap { $0["id"] as? String }
            }
            #expect(seen == (1...50).reversed().map(String.init))
            #expect(
                last.allSatisfy {
                    $0["network"] as? String == "mastodon"
                        && ($0["url"] as? String)?.hasPrefix("https://stub.example/@alice/") == true
                })
            stub.serve((1...53).map { StubMastodon.Status(id: $0, tags: ["tag"]) })
            let newer = try await search(
                "#tag", port: port, directory: directory, "--source", "mastodon", "--format", "json", "--newer")
            #expect(try posts(newer).compactMap { $0["id"] as? String } == ["53", "52", "51"])
            let none = try await search(
                "#tag", port: port, directory: directory, "--source", "mastodon", "--format", "json", "--newer")
            #expect(try posts(none).isEmpty)
        }
    }

    @Test func aFailingSourceIsNamedOnStderrWhileTheOthersAnswer() async throws {
        let directory = try await smallCorpus()
        try await StubMastodon.run { stub, port in
            stub.hideTagTimelines()
            let merged = try await search(
                "#stanford", port: port, directory: directory, "--source", "corpus,mastodon", "--format", "json")
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(
                merged.stderr.contains(
                    "smashtag: Mastodon (127.0.0.1:\(port)) hides hashtag timelines from visitors who are not signed in"
                ))
            #expect(try !posts(merged).isEmpty)
            let alone = try await search("#stanford", port: port, directory: directory, "--source", "mastodon")
            #expect(alone.status != 0)
            #expect(alone.stderr.hasPrefix("smashtag: Mastodon (127.0.0.1:\(port)) hides hashtag timelines"))
        }
    }

    @Test func popularityCountsAcrossSources() async throws {
        let directory = try await smallCorpus()
        try await StubMastodon.run { stub, port in
            // Statuses from 2029: newer than every demo tweet, so the merged page holds them.
            stub.serve(
                (100_000_001...100_000_003).map { StubMastodon.Status(id: $0, tags: ["stanford"], author: "bob") })
            let corpus = try await search(
                "#stanford", port: port, directory: directory, "--source", "corpus", "--format", "json", "--count",
                "100")
            let corpusPosts = try posts(corpus).count
            #expect(corpusPosts > 3)
            let merged = try await search(
                "#stanford", port: port, directory: directory, "--source", "corpus,mastodon", "--format", "json",
                "--count", "100")
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(Set(try posts(merged).compactMap { $0["network"] as? String }) == ["twitter", "mastodon"])
            let popularity = try await SmashtagRun.run([
                "popularity", "#stanford", "--data-dir", directory, "--format", "json",
            ])
            let table = try #require(
                try JSONSerialization.jsonObject(with: Data(popularity.stdout.utf8)) as? [String: Any])
            let hashtags = try #require(table["hashtags"] as? [[String: Any]])
            let swift = hashtags.first { ($0["mention"] as? String)?.lowercased() == "#stanford" }
            #expect(swift?["count"] as? Int == corpusPosts + 3)
        }
    }

    @Test func anUnknownSourceIsOneSentence() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(["search", "#x", "--source", "corpus,myspace", "--data-dir", directory])
        #expect(run.status != 0)
        #expect(
            run.stderr == "smashtag: There is no source called “myspace”: choose from corpus, x, mastodon, bluesky.\n")
    }
}
