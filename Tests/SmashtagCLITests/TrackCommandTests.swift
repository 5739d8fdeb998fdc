import Foundation
import StubBluesky
import StubMastodon
import Testing

/// `smashtag track`, `untrack`, `tracking` and `collect` as a person runs them, and `serve` collecting a tracked term
/// from stand-in Mastodon and Bluesky servers with nobody searching — through a SIGKILL and a restart.
@Suite(.serialized) struct TrackCommandTests {
    @Test func trackUntrackAndTrackingSayWhatTheyDid() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let track = try await SmashtagRun.run(["track", "#swift", "--every", "30s", "--data-dir", directory])
        #expect(track.status == 0 && track.stdout.contains("Tracking “#swift” every 30 s"), "\(track.stderr)")
        let text = try await SmashtagRun.run(["tracking", "--data-dir", directory])
        #expect(text.stdout.hasPrefix("#swift  every 30 s · every source · not fetched yet · due now · 0 posts"))
        let json = try await SmashtagRun.run(["tracking", "--format", "json", "--data-dir", directory])
        let terms = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(terms.first?["term"] as? String == "#swift" && terms.first?["every"] as? Int == 30)
        let recents = try await SmashtagRun.run(["recents", "--data-dir", directory])
        #expect(recents.stdout == "#swift\n")

        let untrack = try await SmashtagRun.run(["untrack", "#SWIFT", "--data-dir", directory])
        #expect(untrack.status == 0 && untrack.stdout == "Stopped tracking “#SWIFT”.\n")
        let again = try await SmashtagRun.run(["untrack", "#swift", "--data-dir", directory])
        #expect(again.status == 1 && again.stderr == "smashtag: “#swift” is not tracked.\n")
        let none = try await SmashtagRun.run(["tracking", "--data-dir", directory])
        #expect(none.stdout == "No term is tracked: smashtag track TERM starts one.\n")

        // A known source this machine does not configure (X without a token) is kept: the server that fetches may.
        let elsewhere = try await SmashtagRun.run(["track", "#rust", "--source", "x", "--data-dir", directory])
        #expect(elsewhere.status == 0 && elsewhere.stdout.contains("from x:"), "\(elsewhere.stderr)")
    }

    @Test(arguments: [
        (["--every", "3s"], "is too often"), (["--every", "soon"], "is not an interval"),
        (["--source", "myspace"], "There is no source called “myspace”"), (["--backfill", "-2"], "--backfill"),
    ])
    func badInputIsRefusedWithOneSentenceAndExit64(options: [String], sentence: String) async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(["track", "#swift"] + options + ["--data-dir", directory])
        #expect(run.status == 64 && run.stderr.contains(sentence), "\(run.stderr)")
        let query = try await SmashtagRun.run(["track", "(#swift", "--data-dir", directory])
        #expect(query.status == 64 && query.stderr.contains("is never closed"), "\(query.stderr)")
    }

    @Test func collectNamesATermThatIsNotTracked() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(["collect", "#nothing", "--source", "corpus", "--data-dir", directory])
        #expect(run.status == 1 && run.stderr.contains("“#nothing” is not tracked: smashtag track '#nothing' first."))
    }

    @Test func serveCollectsWithNobodySearchingAndResumesAfterAKill() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, mastodonPort in
            try await StubBluesky.run { bluesky, blueskyPort in
                let environment = [
                    "SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(mastodonPort)",
                    "SMASHTAG_BLUESKY_SERVICE": "http://127.0.0.1:\(blueskyPort)",
                    "SMASHTAG_BLUESKY_HANDLE": StubBluesky.handle,
                    "SMASHTAG_BLUESKY_APP_PASSWORD": StubBluesky.appPassword,
                ]
                mastodon.serve((1...5).map { StubMastodon.Status(id: $0, tags: ["live"]) })
                bluesky.serve((1...4).map { StubBluesky.Post(second: $0, tags: ["live"]) })
                let track = try await SmashtagRun.run(
                    ["track", "#live", "--every", "10s", "--source", "mastodon,bluesky", "--data-dir", directory],
                    environment: environment)
                #expect(track.status == 0, "\(track.stderr)")

                let arguments = ["serve", "--port", "0", "--source", "mastodon,bluesky", "--data-dir", directory]
                var server = try Self.start(arguments, environment: environment)
                #expect(try await Self.count(of: "#live", reaches: 9, in: directory), "the first run, unasked")
                mastodon.serve((1...8).map { StubMastodon.Status(id: $0, tags: ["live"]) })
                bluesky.serve((1...6).map { StubBluesky.Post(second: $0, tags: ["live"]) })
                #expect(try await Self.count(of: "#live", reaches: 14, in: directory), "the next run's new posts")

                kill(server.processIdentifier, SIGKILL)
                try await SmashtagRun.exit(of: server)
                mastodon.serve((1...11).map { StubMastodon.Status(id: $0, tags: ["live"]) })
                bluesky.serve((1...9).map { StubBluesky.Post(second: $0, tags: ["live"]) })
                server = try Self.start(arguments, environment: environment)
                #expect(try await Self.count(of: "#live", reaches: 20, in: directory), "caught up after the kill")
                kill(server.processIdentifier, SIGTERM)
                try await SmashtagRun.exit(of: server)

                let tracking = try await SmashtagRun.run(["tracking", "--data-dir", directory])
                #expect(tracking.stdout.contains("20 posts"), "each post counted once: \(tracking.stdout)")
                #expect(try await Self.count(of: "#live", in: directory) == 20)
            }
        }
    }

    /// `serve` in the background, its output thrown away.
    private static func start(_ arguments: [String], environment: [String: String]) throws -> ChildProcess {
        try ChildProcess(SmashtagRun.executable, arguments, environment: environment)
    }

    /// Whether the term's count of its own hashtag reaches `expected` within a minute (two tracker intervals and
    /// the start of a server, with room for a loaded machine).
    private static func count(of term: String, reaches expected: Int, in directory: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await count(of: term, in: directory) >= expected { return true }
            try await Task.sleep(for: .milliseconds(250))
        }
        return false
    }

    /// The count of the term's own hashtag in its popularity table, as `smashtag popularity` prints it.
    private static func count(of term: String, in directory: String) async throws -> Int {
        let run = try await SmashtagRun.run(["popularity", term, "--format", "json", "--data-dir", directory])
        let table = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let hashtags = table?["hashtags"] as? [[String: Any]] ?? []
        return hashtags.first { ($0["mention"] as? String)?.lowercased() == term }?["count"] as? Int ?? 0
    }
}
