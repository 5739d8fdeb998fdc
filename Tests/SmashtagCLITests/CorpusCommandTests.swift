import Foundation
import Testing

/// `smashtag import` and `smashtag search` on a temporary data directory.
struct CorpusCommandTests {
    private let directory: String

    init() throws {
        directory = try SmashtagRun.temporaryDirectory()
    }

    private func smashtag(_ arguments: String...) async throws -> SmashtagRun {
        try await SmashtagRun.run(arguments + ["--data-dir", directory])
    }

    private func searchJSON(_ arguments: String...) async throws -> [[String: Any]] {
        let run = try await SmashtagRun.run(["search", "--format", "json"] + arguments + ["--data-dir", directory])
        try #require(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return document["tweets"] as? [[String: Any]] ?? []
    }

    private static let ownFiles = [
        "v1-search.json", "v2-search.json", "twarc2-pages.jsonl", "twarc2-flat.jsonl", "archive/data/tweets.js",
    ]
    .map(SmashtagRun.fixture)

    @Test func importingTheSameFilesTwiceAddsNothing() async throws {
        let first = try await SmashtagRun.run(["import"] + Self.ownFiles + ["--data-dir", directory])
        #expect(first.status == 0, "\(first.stderr)")
        let imported = try #require(first.stdout.firstMatch(of: /Imported (\d+) posts, 0 duplicates, 0 skipped/))
        let second = try await SmashtagRun.run(["import"] + Self.ownFiles + ["--data-dir", directory])
        #expect(second.stdout.contains("Imported 0 posts, \(imported.1) duplicates, 0 skipped"))
    }

    @Test func aMalformedLineIsReportedWithFileAndLineSkippedAndFailsTheImport() async throws {
        let run = try await smashtag("import", SmashtagRun.fixture("malformed.jsonl"))
        #expect(run.status != 0)
        #expect(run.stderr.contains("malformed.jsonl:3: malformed JSON"))
        #expect(run.stdout.contains(" 1 skipped"))
        #expect(try await searchJSON("from:line_counter").count == 3)
    }

    @Test func aMissingFileIsNamedAndTheOthersStillImport() async throws {
        let run = try await smashtag("import", "/nonexistent.jsonl", SmashtagRun.fixture("v1-search.json"))
        #expect(run.status != 0)
        #expect(run.stderr.contains("smashtag: /nonexistent.jsonl: no such file"))
        #expect(!run.stdout.contains("Imported 0 posts"))
    }

    @Test func searchPrintsSpecJSONNewestFirstAndPagesWithoutRepeats() async throws {
        _ = try await SmashtagRun.run(["import"] + Self.ownFiles + ["--data-dir", directory])
        let all = try await searchJSON("#swift OR #jsonl OR #unicode", "--count", "100")
        #expect(all.count >= 3)
        let ids = all.compactMap { Int64($0["id"] as? String ?? "") }
        #expect(ids == ids.sorted(by: >))
        var paged = try await searchJSON("#swift OR #jsonl OR #unicode", "--count", "1")
        while true {
            let older = try await searchJSON("#swift OR #jsonl OR #unicode", "--count", "1", "--older")
            if older.isEmpty { break }
            paged += older
        }
        #expect(paged.compactMap { $0["id"] as? String } == all.compactMap { $0["id"] as? String })
        #expect(try await searchJSON("#swift OR #jsonl OR #unicode", "--newer").isEmpty)
    }

    @Test func searchingTwiceCountsOnceAndRecentsKeepTheTerm() async throws {
        _ = try await SmashtagRun.run(["import"] + Self.ownFiles + ["--data-dir", directory])
        _ = try await smashtag("search", "#swift OR @lena_photo OR #unicode", "--count", "100")
        let once = try await smashtag("popularity", "#swift OR @lena_photo OR #unicode", "--format", "json")
        _ = try await smashtag("search", "#SWIFT or  @lena_photo OR #unicode", "--count", "100")
        let twice = try await smashtag("popularity", "#swift OR @lena_photo OR #unicode", "--format", "json")
        #expect(once.status == 0 && once.stdout.contains(#""count":"#))
        let text = try await smashtag("popularity", "#swift OR @lena_photo OR #unicode").stdout
        let origins = try #require(text.split(separator: "\n").first.map(String.init))
        #expect(
            origins.wholeMatch(of: /From [0-9,]+ posts(: |, all )from (X|Mastodon|Bluesky).*\./) != nil,
            "where the counted posts came from, first: \(origins)")
        let csv = try await smashtag("popularity", "#swift OR @lena_photo OR #unicode", "--format", "csv")
        let table = try #require(try JSONSerialization.jsonObject(with: Data(once.stdout.utf8)) as? [String: Any])
        let expected = ["hashtags": "hashtag", "users": "user"].sorted { $0.key < $1.key }.flatMap { key, kind in
            (table[key] as? [[String: Any]] ?? []).map {
                let mention = $0["mention"] as? String ?? ""
                let partners = ($0["partners"] as? [String] ?? []).joined(separator: " ")
                // A cell starting with @ is prefixed, so that a spreadsheet shows it rather than running it.
                return
                    "\(mention.hasPrefix("@") ? "'" : "")\(mention),\(kind),\($0["count"] as? Int ?? 0),,,\(partners)"
            }
        }
        #expect(
            csv.stdout.components(separatedBy: "\r\n") == ["mention,kind,count,previous,change,partners"] + expected + [
                ""
            ],
            "the CSV says what the JSON says")
        #expect(expected.count > 1)
        #expect(
            twice.stdout.replacingOccurrences(of: "#SWIFT or @lena_photo", with: "#swift OR @lena_photo") == once.stdout
        )
        #expect(try await smashtag("recents", "--format", "json").stdout == "[\"#SWIFT or @lena_photo OR #unicode\"]\n")
        #expect(try await smashtag("recents", "delete", "#swift OR @LENA_photo OR #unicode").status == 0)
        #expect(try await smashtag("recents", "--format", "json").stdout == "[]\n")
        let gone = try await smashtag("recents", "delete", "#swift")
        #expect(gone.status == 1 && gone.stderr == "smashtag: “#swift” is not in Recents.\n")
    }

    @Test func trendsAddUpToThePopularityCountsInTextJSONAndCSV() async throws {
        _ = try await SmashtagRun.run(["import"] + Self.ownFiles + ["--data-dir", directory])
        _ = try await smashtag("search", "#swift OR @lena_photo OR #unicode", "--count", "100")
        let popularity = try await smashtag("popularity", "#swift OR @lena_photo OR #unicode", "--format", "csv").stdout
        let counts = popularity.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map {
            $0.split(separator: ",")
        }
        let csv = try await smashtag("trend", "#swift OR @lena_photo OR #unicode", "--bucket", "day", "--format", "csv")
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map {
            $0.split(separator: ",")
        }
        for count in counts {
            let series = rows.filter { $0[0] == count[0] }
            #expect(series.allSatisfy { $0[1] == count[1] && $0[2].hasSuffix("T00:00:00Z") })
            #expect(series.map { Int($0[3])! }.reduce(0, +) == Int(count[2])!, "\(count[0])")
        }
        let mention = String(counts[0][0])
        let json = try await smashtag(
            "trend", "#swift OR @lena_photo OR #unicode", "--mention", mention.uppercased(), "--bucket", "day",
            "--format", "json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["mention"] as? String == mention && document["bucket"] as? String == "day")
        let points = try #require(document["points"] as? [[String: Any]])
        #expect(
            points.map { "\(mention),\(counts[0][1]),\($0["start"]!),\($0["count"]!)" }
                == rows.filter { $0[0] == mention }.map { $0.joined(separator: ",") })
        let text = try await smashtag("trend", "#swift OR @lena_photo OR #unicode", "--mention", mention)
        #expect(
            text.status == 0 && text.stdout.contains("\(mention) in “#swift OR @lena_photo OR #unicode”")
                && text.stdout.contains("█"))
        let bad = try await smashtag("trend", "#swift", "--bucket", "week")
        #expect(bad.status != 0 && bad.stderr.contains("week"))
    }

    @Test func aMalformedQueryIsOneSentence() async throws {
        let run = try await smashtag("search", "(#swift OR")
        #expect(run.status == 1)
        #expect(run.stderr == "smashtag: “OR” at character 9 needs something to search for after it.\n")
    }

    @Test func everyTwitterFileOfTheSharedFixturesImports() async throws {
        let root = SmashtagRun.repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        let files = ["twitter-v1.1", "twitter-v2"].flatMap { tweetFiles(under: root.appendingPathComponent($0)) }
        guard !files.isEmpty else {
            print("skipped: ../shared/fixtures is absent")
            return
        }
        let run = try await SmashtagRun.run(["import"] + files + ["--data-dir", directory])
        let skipped = run.stderr.split(separator: "\n").filter { $0.hasSuffix("(skipped)") }
        #expect(
            skipped.count == 1 && skipped[0].contains("streaming_output_with_error.jsonl:8: malformed JSON"),
            "\(skipped)")
        #expect(run.stdout.contains("Imported ") && run.stdout.contains(" 1 skipped"))
    }

    private func tweetFiles(under root: URL) -> [String] {
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? [])
            .filter { ["json", "jsonl", "js"].contains($0.pathExtension) }
            .map(\.path).sorted()
    }
}

/// The first run on a fresh data directory.
struct DemoCorpusCommandTests {
    @Test func aFreshDataDirectoryGeneratesTheDemoAndPrintsColouredTweets() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        // `script` gives the command a terminal, as a person at a shell would have.
        let command = "env -u NO_COLOR \(SmashtagRun.executable.path) search '#swift' --count 5 --data-dir \(directory)"
        let run = try await SmashtagRun.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("generating the demo corpus"))
        #expect(
            run.stdout.contains("\u{1B}[36m#swift\u{1B}[0m") || run.stdout.contains("\u{1B}[36m#Swift\u{1B}[0m"),
            "\(run.stdout.suffix(300))")
        let again = try await SmashtagRun.run(["search", "#swift", "--data-dir", directory, "--format", "json"])
        #expect(!again.stderr.contains("generating"))
        #expect(again.stdout.contains("\"tweets\":[{"))
    }

    @Test func generatingTwarcLinesIsDeterministicAndImportsBack() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let first = directory + "/a.jsonl"
        let second = directory + "/b.jsonl"
        for file in [first, second] {
            let run = try await SmashtagRun.run([
                "corpus", "generate", "--tweets", "300", "--seed", "7", "--end", "2026-01-01T00:00:00Z", "--out", file,
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(FileManager.default.contentsEqual(atPath: first, andPath: second))
        let imported = try await SmashtagRun.run(["import", first, "--data-dir", directory])
        #expect(
            imported.stdout.contains("Imported 300 posts, 0 duplicates, 0 skipped"),
            "\(imported.stdout)\(imported.stderr)")
    }
}

/// `corpus generate --end` takes what the GUIDE shows: a date alone (its first moment, UTC), or a date and time.
@Suite struct GenerateEndTests {
    @Test func aDateAloneEndsTheDemoAtThatDaysFirstMoment() async throws {
        let out = try SmashtagRun.temporaryDirectory() + "/demo.jsonl"
        let run = try await SmashtagRun.run([
            "corpus", "generate", "--tweets", "50", "--end", "2026-01-02", "--out", out,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let times = try String(contentsOfFile: out, encoding: .utf8)
            .matches(of: /"created_at":"([^"]+)"/).map { String($0.1) }
        #expect(!times.isEmpty && times.allSatisfy { $0 <= "2026-01-02T00:00:00.000Z" && $0 >= "2025-12-03" })
        let wrong = try await SmashtagRun.run(["corpus", "generate", "--end", "2 January", "--out", out])
        #expect(wrong.status != 0 && wrong.stderr.contains("like 2026-11-21"), "\(wrong.stderr)")
    }
}
