import Foundation
import StubMastodon
import Testing

/// `smashtag thread`: a Mastodon post's thread from the stand-in server (by `mastodon:ID` and by its address), the
/// same tree as JSON, and a post no one has or an address that names none, each one sentence.
@Suite(.serialized) struct ThreadCommandTests {
    private func thread(_ arguments: [String], port: Int, directory: String) async throws -> SmashtagRun {
        try await SmashtagRun.run(
            ["thread"] + arguments + ["--data-dir", directory, "--source", "mastodon"],
            environment: ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"])
    }

    @Test func aPostsThreadPrintsAsATreeAndAsJSON() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { stub, port in
            stub.serve([
                .init(id: 1, author: "ann"), .init(id: 2, author: "bob", replyingTo: 1),
                .init(id: 3, author: "cy", replyingTo: 2), .init(id: 4, author: "di", replyingTo: 3),
            ])
            let text = try await thread(["mastodon:2"], port: port, directory: directory)
            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "From Mastodon (127.0.0.1:\(port)).")
            #expect(lines.contains { $0.hasPrefix("ann @ann@stub.example") || $0.contains("@ann@stub.example") })
            #expect(lines.contains { $0.hasPrefix("▶ ") && $0.contains("@bob@stub.example") })
            #expect(lines.contains { $0.hasPrefix("  ") && $0.contains("@cy@stub.example") })
            #expect(lines.contains { $0.hasPrefix("    ") && $0.contains("@di@stub.example") })

            let json = try await thread(
                ["https://stub.example/@bob/2", "--format", "json"], port: port, directory: directory)
            #expect(json.status == 0, "\(json.stderr)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((document["post"] as? [String: Any])?["id"] as? String == "2")
            let replies = try #require(document["replies"] as? [[String: Any]])
            #expect((replies.first?["post"] as? [String: Any])?["id"] as? String == "3")
            #expect(
                ((replies.first?["replies"] as? [[String: Any]])?.first?["post"] as? [String: Any])?["id"] as? String
                    == "4")

            let missing = try await thread(["mastodon:99"], port: port, directory: directory)
            #expect(missing.status == 1)
            #expect(missing.stderr == "smashtag: No source here has Mastodon post 99: it may have been deleted.\n")
        }
    }

    @Test func anAddressThatNamesNoPostIsRefused() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(["thread", "https://example.com/about", "--data-dir", directory])
        #expect(run.status != 0)
        #expect(run.stderr.contains("“https://example.com/about” is not a post: give network:id"))
    }
}
