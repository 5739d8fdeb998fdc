import Foundation
import StubMastodon
import StubServer
import Testing

/// `smashtag corpus recheck` and `smashtag forget`: posts their network deleted, and a person forgotten, leave the
/// counts, the networks and the kept posts; a network that cannot answer deletes nothing.
@Suite struct RecheckCommandTests {
    private static func statuses() -> [StubMastodon.Status] {
        (1...6).map {
            StubMastodon.Status(id: $0, tags: ["clips", $0 % 2 == 0 ? "even" : "odd"], author: "a\($0 % 3)")
        }
    }

    private func popularity(_ directory: String, _ environment: [String: String]) async throws -> String {
        let run = try await SmashtagRun.run(
            ["popularity", "#clips", "--format", "csv", "--data-dir", directory], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    /// The stand-in serving the statuses, searched once: the environment that names it.
    private func searched(_ mastodon: StubMastodon, _ port: Int, _ directory: String) async throws -> [String: String] {
        let environment = ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"]
        mastodon.serve(Self.statuses())
        let search = try await SmashtagRun.run(
            ["search", "#clips", "--source", "mastodon", "--data-dir", directory], environment: environment)
        #expect(search.status == 0, "\(search.stderr)")
        return environment
    }

    @Test func postsTheServerDeletedLeaveTheCountsAndTheOthersStay() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            let environment = try await searched(mastodon, port, directory)
            #expect(try await popularity(directory, environment).contains("#odd,hashtag,3"))

            mastodon.serve(Self.statuses().filter { $0.id != 1 && $0.id != 3 })
            let recheck = try await SmashtagRun.run(
                ["corpus", "recheck", "--data-dir", directory], environment: environment)
            #expect(recheck.status == 0, "\(recheck.stderr)")
            #expect(
                recheck.stdout == """
                    Mastodon (127.0.0.1:\(port)): 6 posts checked, 2 deleted and removed from the counts, the networks \
                    and the corpus.

                    """)
            let after = try await popularity(directory, environment)
            #expect(
                after.contains("#clips,hashtag,4") && after.contains("#even,hashtag,3") && !after.contains("#odd,"),
                "\(after)")

            let again = try await SmashtagRun.run(
                ["corpus", "recheck", "--older-than", "1d", "--data-dir", directory], environment: environment)
            #expect(again.stdout.contains("0 posts checked, 0 deleted."), "checked within a day: not asked again")
            #expect(mastodon.requests.filter { $0.hasPrefix("/api/v1/statuses/") }.count == 6)

            let audit = try await SmashtagRun.run(["audit", "--data-dir", directory])
            #expect(audit.stdout.contains("recheck  2 posts their networks deleted removed"), "\(audit.stdout)")

            let export = try await SmashtagRun.run(
                ["export", "#clips", "--output", directory + "/clips.ndjson", "--data-dir", directory])
            #expect(export.status == 0, "\(export.stderr)")
            let lines = try String(contentsOfFile: directory + "/clips.ndjson", encoding: .utf8)
            #expect(lines.split(separator: "\n").count == 4, "the deleted posts are not exported")
            let package = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: directory + "/clips.datapackage.json")))
                    as? [String: Any])
            let collection = try #require(package["collection"] as? [String: Any])
            #expect(collection["postsRechecked"] as? Int == 4)
            #expect(
                (collection["deletions"] as? String)?.hasPrefix("Every post was rechecked with its network") == true)
        }
    }

    /// Posts imported into the corpus that no search kept are asked about too (the corpus as a whole): the deleted
    /// leave the corpus, the others are marked checked and not asked again within --older-than.
    @Test func theCorpusImportedPostsAreRecheckedToo() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let file = directory + "/statuses.json"
        try StubMastodon.timeline(Self.statuses()).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await SmashtagRun.run(["import", file, "--data-dir", directory])
        #expect(imported.status == 0 && imported.stdout.contains("Imported 6 posts"), "\(imported)")
        try await StubMastodon.run { mastodon, port in
            let environment = ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"]
            mastodon.serve(Self.statuses().filter { $0.id != 2 })
            let recheck = try await SmashtagRun.run(
                ["corpus", "recheck", "--older-than", "1d", "--data-dir", directory], environment: environment)
            #expect(recheck.stdout.contains(": 6 posts checked, 1 deleted and removed"), "\(recheck)")
            let found = try await SmashtagRun.run(
                ["search", "#clips", "--source", "corpus", "--format", "json", "--data-dir", directory])
            #expect(found.stdout.components(separatedBy: "\"network\":\"mastodon\"").count - 1 == 5, "\(found.stdout)")
            let again = try await SmashtagRun.run(
                ["corpus", "recheck", "--older-than", "1d", "--data-dir", directory], environment: environment)
            #expect(again.stdout.contains("0 posts checked, 0 deleted."), "checked within a day: not asked again")
            #expect(mastodon.requests.filter { $0.hasPrefix("/api/v1/statuses/") }.count == 6)
        }
    }

    /// `serve --recheck-days`: the server asks at start and every hour, nobody asking it to.
    @Test func serveRechecksWhileItRuns() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            let environment = try await searched(mastodon, port, directory)
            mastodon.serve(Self.statuses().filter { $0.id > 2 })
            let server = try ChildProcess(
                SmashtagRun.executable,
                [
                    "serve", "--port", "0", "--recheck-days", "1", "--source", "mastodon", "--data-dir", directory,
                ], environment: environment)
            let deadline = ContinuousClock.now + .seconds(60)
            var table = ""
            while !table.contains("#clips,hashtag,4"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(250))
                table = try await popularity(directory, environment)
            }
            kill(server.processIdentifier, SIGTERM)
            try await SmashtagRun.exit(of: server)
            #expect(table.contains("#clips,hashtag,4"), "the two deleted posts left: \(table)")
        }
    }

    @Test func aServerThatCannotAnswerDeletesNothing() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            let environment = try await searched(mastodon, port, directory)
            let before = try await popularity(directory, environment)
            for failure in [
                StubMastodon.Failure(status: 404, body: "<html><body>Down for maintenance</body></html>"),
                StubMastodon.Failure(status: 503, body: "<html>Service Unavailable</html>"),
            ] {
                mastodon.fail(with: failure)
                let recheck = try await SmashtagRun.run(
                    ["corpus", "recheck", "--data-dir", directory], environment: environment)
                #expect(recheck.status == 1)
                #expect(recheck.stdout.contains("0 posts checked, 0 deleted; then it stopped: "), "\(recheck.stdout)")
                #expect(recheck.stdout.contains("The posts not checked were left as they were."))
                #expect(try await popularity(directory, environment) == before)
            }
        }
    }

    @Test func aForgottenPersonsPostsLeaveTheCountsAndAnUnknownOneIsSaid() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            let environment = try await searched(mastodon, port, directory)
            let forget = try await SmashtagRun.run(["forget", "@a1@stub.example", "--data-dir", directory])
            #expect(forget.status == 0, "\(forget.stderr)")
            #expect(
                forget.stdout
                    == "Forgot @a1@stub.example: 2 posts removed from the counts of 1 term, 0 posts from the corpus.\n")
            let after = try await popularity(directory, environment)
            #expect(after.contains("#clips,hashtag,4"), "\(after)")
            let unknown = try await SmashtagRun.run(["forget", "@nobody", "--data-dir", directory])
            #expect(unknown.status == 1 && unknown.stderr.contains("No post by @nobody is kept: nothing was removed."))
            let audit = try await SmashtagRun.run(["audit", "--data-dir", directory])
            #expect(audit.stdout.contains("forget  a person's posts removed") && !audit.stdout.contains("a1"))
        }
    }
}
