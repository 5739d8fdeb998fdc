import Foundation
import StubMastodon
import Testing

/// `smashtag corpus prune --keep-days` and `serve --keep-days`: posts past the keeping time leave the kept posts and
/// datasets, their counts staying as aggregates unless `--forget-counts`.
@Suite struct RetentionCommandTests {
    /// The stand-in's statuses are dated July 2026: months before the tests run.
    private static let statuses = (1...4).map { StubMastodon.Status(id: $0, tags: ["kept", $0 % 2 == 0 ? "a" : "b"]) }

    private func searched(_ mastodon: StubMastodon, _ port: Int, _ directory: String) async throws -> [String: String] {
        let environment = ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"]
        mastodon.serve(Self.statuses)
        let search = try await SmashtagRun.run(
            ["search", "#kept", "--source", "mastodon", "--data-dir", directory], environment: environment)
        #expect(search.status == 0, "\(search.stderr)")
        return environment
    }

    private func table(_ directory: String) async throws -> String {
        try await SmashtagRun.run(["popularity", "#kept", "--format", "csv", "--data-dir", directory]).stdout
    }

    @Test func olderPostsLeaveTheDatasetsAndTheirCountsStayUnlessForgotten() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            _ = try await searched(mastodon, port, directory)
            let before = try await table(directory)
            #expect(before.contains("#kept,hashtag,4"), "\(before)")

            let recent = try await SmashtagRun.run(["corpus", "prune", "--keep-days", "3650", "--data-dir", directory])
            #expect(
                recent.stdout
                    == "Posts made more than 3650 days ago: 0 posts reduced to their counts, "
                    + "0 posts deleted from the corpus.\n"
            )

            let prune = try await SmashtagRun.run(["corpus", "prune", "--keep-days", "30", "--data-dir", directory])
            #expect(prune.status == 0, "\(prune.stderr)")
            #expect(prune.stdout.hasPrefix("Posts made more than 30 days ago: 4 posts reduced to their counts, "))
            #expect(try await table(directory) == before, "the counts stay as aggregates")

            let export = try await SmashtagRun.run(
                ["export", "#kept", "--output", directory + "/kept.ndjson", "--data-dir", directory])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(try String(contentsOfFile: directory + "/kept.ndjson", encoding: .utf8).isEmpty)
            let package = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: directory + "/kept.datapackage.json")))
                    as? [String: Any])
            let collection = try #require(package["collection"] as? [String: Any])
            #expect(collection["postsExpired"] as? Int == 4 && collection["postsWithheld"] as? Int == 0)

            let forget = try await SmashtagRun.run(
                ["corpus", "prune", "--keep-days", "30", "--forget-counts", "--data-dir", directory])
            #expect(forget.stdout.hasPrefix("Posts made more than 30 days ago: 4 posts removed with their counts"))
            #expect(!(try await table(directory)).contains("#kept,"), "the counts went with them")
            let audit = try await SmashtagRun.run(["audit", "--data-dir", directory])
            #expect(audit.stdout.contains("prune  posts older than 30 days, with their counts"), "\(audit.stdout)")
        }
    }

    /// `track --keep 30d`: the term's older posts are reduced by `corpus prune` alone (no whole-data keeping time),
    /// their counts staying; `consent off` is audited and every dataset made while the rule is off records it.
    @Test func aTrackedTermsKeepingTimeAndTheConsentRulesAreKeptToAndRecorded() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            let track = try await SmashtagRun.run(["track", "#kept", "--keep", "30d", "--data-dir", directory])
            #expect(track.stdout.contains("; it keeps its posts 30 days: serve or collect fetches it."), "\(track)")
            let badKeep = try await SmashtagRun.run(["track", "#kept", "--keep", "0d", "--data-dir", directory])
            #expect(badKeep.status != 0 && badKeep.stderr.contains("“0d” is not a keeping time"), "\(badKeep)")
            _ = try await searched(mastodon, port, directory)
            let before = try await table(directory)
            let tracking = try await SmashtagRun.run(["tracking", "--data-dir", directory])
            #expect(tracking.stdout.contains("keeps its posts 30 days"), "\(tracking.stdout)")

            let prune = try await SmashtagRun.run(["corpus", "prune", "--data-dir", directory])
            #expect(prune.stdout == "Tracked terms' own keeping times: 4 posts reduced to their counts.\n", "\(prune)")
            #expect(try await table(directory) == before, "the counts stay as aggregates")
            let again = try await SmashtagRun.run(["corpus", "prune", "--data-dir", directory])
            #expect(again.stdout.contains(": 0 posts reduced"), "reduced once")

            let rules = try await SmashtagRun.run(["consent", "--data-dir", directory])
            #expect(
                rules.stdout.hasPrefix("mastodon-indexable: on. ")
                    && rules.stdout.contains("bluesky-signed-in-only: on."))
            let off = try await SmashtagRun.run(["consent", "off", "mastodon-indexable", "--data-dir", directory])
            #expect(off.stdout.hasPrefix("mastodon-indexable is off, recorded in the audit trail"), "\(off)")
            let twice = try await SmashtagRun.run(["consent", "off", "mastodon-indexable", "--data-dir", directory])
            #expect(twice.stdout == "mastodon-indexable was already off: nothing changed.\n")
            let unknown = try await SmashtagRun.run(["consent", "off", "everything", "--data-dir", directory])
            #expect(unknown.status != 0 && unknown.stderr.contains("mastodon-indexable"), "\(unknown)")
            let listed = try await SmashtagRun.run(["consent", "--data-dir", directory])
            #expect(listed.stdout.hasPrefix("mastodon-indexable: off since 20"), "\(listed.stdout)")

            let export = try await SmashtagRun.run(
                ["export", "#kept", "--output", directory + "/kept.ndjson", "--data-dir", directory])
            #expect(export.status == 0, "\(export.stderr)")
            let package = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: directory + "/kept.datapackage.json")))
                    as? [String: Any])
            let collection = try #require(package["collection"] as? [String: Any])
            let consent = try #require(collection["consent"] as? [[String: Any]])
            #expect(consent.map { $0["rule"] as? String } == ["mastodon-indexable", "bluesky-signed-in-only"])
            #expect(consent[0]["on"] as? Bool == false && (consent[0]["offSince"] as? String)?.hasPrefix("20") == true)
            #expect(consent[1]["on"] as? Bool == true && consent[1]["offSince"] == nil)
            #expect((collection["consentRules"] as? String)?.contains("was turned off at") == true)
            #expect(collection["postsExpired"] as? Int == 4)
            let audit = try await SmashtagRun.run(["audit", "--data-dir", directory])
            #expect(audit.stdout.contains("consent  mastodon-indexable off"), "\(audit.stdout)")
            #expect(audit.stdout.contains("prune  tracked terms' keeping times"), "\(audit.stdout)")

            // Tracked again to forget the counts too: the reduced posts leave the term's counts.
            let alone = try await SmashtagRun.run(["track", "#kept", "--forget-counts", "--data-dir", directory])
            #expect(alone.status != 0 && alone.stderr.contains("--forget-counts goes with --keep"), "\(alone)")
            let forget = try await SmashtagRun.run(
                ["track", "#kept", "--keep", "30d", "--forget-counts", "--data-dir", directory])
            #expect(forget.stdout.contains("it keeps its posts 30 days, and their counts"), "\(forget)")
            let forgotten = try await SmashtagRun.run(["corpus", "prune", "--data-dir", directory])
            #expect(
                forgotten.stdout
                    == "Tracked terms' own keeping times: 0 posts reduced to their counts, 4 posts taken out of their "
                    + "term's counts.\n", "\(forgotten)")
            #expect(!(try await table(directory)).contains("#kept,"), "the counts went with them")
        }
    }

    /// The server runs retention at start and every hour: the counts go within the bound, nobody asking.
    @Test func serveKeepDaysRemovesOlderPostsWhileItRuns() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            let environment = try await searched(mastodon, port, directory)
            let server = try ChildProcess(
                SmashtagRun.executable,
                [
                    "serve", "--port", "0", "--keep-days", "30", "--forget-counts", "--source", "mastodon",
                    "--data-dir", directory,
                ], environment: environment)
            let deadline = ContinuousClock.now + .seconds(60)
            var removed = false
            while !removed, ContinuousClock.now < deadline {
                removed = !(try await table(directory)).contains("#kept,")
                if !removed { try await Task.sleep(for: .milliseconds(250)) }
            }
            kill(server.processIdentifier, SIGTERM)
            try await SmashtagRun.exit(of: server)
            #expect(removed, "the first run, at start")
        }
    }

    @Test func forgetCountsNeedsKeepDays() async throws {
        let run = try await SmashtagRun.run([
            "serve", "--forget-counts", "--data-dir", try SmashtagRun.temporaryDirectory(),
        ])
        #expect(run.status == 64 && run.stderr.contains("--forget-counts says what --keep-days removes"))
    }
}
