import Foundation
import Testing

/// Issue 12 at the command line: nothing lost to bad lines, the same verdict from `inspect` and `import`, and
/// queries that start with `-`.
@Suite struct BadInputCommandTests {
    let directory: String

    init() throws {
        directory = try SmashtagRun.temporaryDirectory()
    }

    private func smashtag(_ arguments: String...) async throws -> SmashtagRun {
        try await SmashtagRun.run(arguments + ["--data-dir", directory])
    }

    private func file(_ name: String, _ lines: [String]) throws -> String {
        let path = directory + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func status(_ id: String, idJSON: String? = nil) -> String {
        let idMember = idJSON.map { "\"id\": \($0)" } ?? "\"id_str\": \"\(id)\""
        return
            #"""
            {\#(idMember), "created_at": "Wed Oct 10 20:19:24 +0000 2018", "full_text": "hello #swift", "user": \#
            {"screen_name": "a", "name": "A"}, "entities": {"hashtags": [{"text": "swift", "indices": [6, 12]}]}}
            """#
    }

    @Test func twentyFiveBadLinesThenAHundredGoodOnesImportEveryGoodTweet() async throws {
        let path = try file(
            "bad-then-good.jsonl", (1...25).map { "{broken \($0)" } + (1...100).map { Self.status(String(1000 + $0)) })
        let run = try await smashtag("import", path)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Imported 100 posts, 0 duplicates, 25 skipped"), "\(run.stdout)")
        let listed = run.stderr.split(separator: "\n").filter { $0.hasSuffix("(skipped)") }
        #expect(listed.count == 20)
        #expect(listed.first?.hasPrefix("smashtag: \(path):1: malformed JSON") == true)
        #expect(run.stderr.contains("smashtag: 25 lines skipped; the first 20 are listed above."))
        let inspected = try await smashtag("inspect", path, "--format", "json")
        #expect(inspected.stdout.split(separator: "\n").count == 100)
        #expect(inspected.stderr.contains("smashtag: 25 lines could not be read; the first 20 are listed above."))
    }

    @Test func inspectAndImportGiveTheSameVerdictOnIds() async throws {
        let ids = [
            #""abc""#, #""1.5""#, #""-5""#, "18446744073709551616", #""0""#,
            "\"\(String(repeating: "7", count: 400))\"",
        ]
        let path = try file("ids.jsonl", ids.map { Self.status("", idJSON: $0) } + [Self.status("42")])
        let inspected = try await smashtag("inspect", path, "--format", "json")
        let imported = try await smashtag("import", path)
        #expect(inspected.stdout.split(separator: "\n").count == 1)
        #expect(imported.stdout.contains("Imported 1 post, 0 duplicates, 6 skipped"), "\(imported.stdout)")
        let inspectLines = inspected.stderr.split(separator: "\n")
        let importLines = imported.stderr.split(separator: "\n").map {
            $0.replacingOccurrences(of: " (skipped)", with: "")
        }
        #expect(inspectLines.map(String.init) == importLines)
        #expect(inspectLines.count == 6)
        for (index, line) in inspectLines.enumerated() {
            #expect(line.hasPrefix("smashtag: \(path):\(index + 1): the tweet id “"))
        }
        #expect(
            inspectLines.allSatisfy { $0.count - path.count < 150 },
            "a long id is cut (the path aside: TMPDIR's length varies)")
    }

    @Test(arguments: ["-filter:retweets #swift", "-is:retweet #swift"])
    func aQueryStartingWithAMinusIsTheQuery(query: String) async throws {
        _ = try await smashtag("import", try file("one.jsonl", [Self.status("7")]))
        let run = try await smashtag("search", query, "--format", "json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""id":"7""#))
        #expect(try await smashtag("recents").stdout.contains(query))
    }

    @Test func aMistypedOptionIsStillAnError() async throws {
        let run = try await smashtag("search", "#swift", "--cuont", "5")
        #expect(run.status == 64)
        #expect(run.stderr.contains("Unknown option “--cuont”"))
    }
}

/// `smashtag help WORD`: a word that names no command is said, not answered with the top-level help.
@Suite struct HelpCommandTests {
    @Test func helpForACommandThatDoesNotExistSaysSoAndFails() async throws {
        let run = try await SmashtagRun.run(["help", "nosuch"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("there is no command “nosuch”"), "\(run.stderr)")
        let nested = try await SmashtagRun.run(["help", "corpus", "nosuch"])
        #expect(nested.status == 64)
        let known = try await SmashtagRun.run(["help", "corpus", "generate"])
        #expect(known.status == 0 && known.stdout.contains("--end"), "\(known.stderr)")
    }
}

/// `popularity` and `trend` of a term not in Recents refuse it, as `network` and `export` do.
@Suite struct NotInRecentsCommandTests {
    @Test func popularityAndTrendOfATermNotInRecentsFail() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        for command in [
            ["popularity", "#neverSearched"], ["trend", "#neverSearched"], ["network", "#neverSearched"],
        ] {
            let run = try await SmashtagRun.run(command + ["--data-dir", directory])
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr.contains("“#neverSearched” is not in Recents"), "\(command): \(run.stderr)")
        }
    }
}
