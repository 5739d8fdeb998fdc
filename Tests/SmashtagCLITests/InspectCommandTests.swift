import Foundation
import Testing

/// Runs the real `smashtag` binary, as a script would.
struct InspectCommandTests {
    static func smashtag(_ arguments: String...) async throws -> SmashtagRun { try await SmashtagRun.run(arguments) }
    static func fixture(_ name: String) -> String { SmashtagRun.fixture(name) }

    @Test func printsJSONLinesWhoseMentionsAreSlicesOfTheText() async throws {
        let run = try await Self.smashtag("inspect", "--format", "json", Self.fixture("v1-search.json"))
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count > 5)
        for line in lines {
            let post = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(post.keys).isSuperset(of: ["id", "created", "user", "text", "mentions", "media"]))
            let text = Array((post["text"] as? String ?? "").unicodeScalars)
            for mention in post["mentions"] as? [[String: Any]] ?? [] {
                let start = mention["start"] as? Int ?? -1
                let end = mention["end"] as? Int ?? -1
                try #require(start >= 0 && end <= text.count)
                #expect(String(String.UnicodeScalarView(text[start..<end])) == mention["keyword"] as? String)
            }
        }
    }

    @Test func aBrokenLinePrintsTheGoodTweetsAndFailsNamingTheLine() async throws {
        let run = try await Self.smashtag("inspect", "--format", "json", Self.fixture("malformed.jsonl"))
        #expect(run.status != 0)
        #expect(run.stderr.contains("malformed.jsonl:3: malformed JSON"))
        #expect(!run.stdout.isEmpty)
    }

    @Test func aMissingFileIsOneClearSentence() async throws {
        let run = try await Self.smashtag("inspect", "/nonexistent/tweets.json")
        #expect(run.status != 0)
        #expect(run.stderr == "smashtag: /nonexistent/tweets.json: no such file\n")
    }

    @Test func anAPIErrorBodyIsANoteNotAFailure() async throws {
        let run = try await Self.smashtag("inspect", Self.fixture("not-tweets.json"))
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("note:") && run.stderr.contains("Rate limit exceeded"))
    }

    @Test func textFormatShowsAuthorAndTextWithoutColoursWhenNotATerminal() async throws {
        let run = try await Self.smashtag("inspect", Self.fixture("v1-search.json"))
        #expect(run.status == 0)
        #expect(run.stdout.contains("@"))
        #expect(!run.stdout.contains("\u{1B}["))
    }

    @Test func anUnknownFormatOptionIsRejected() async throws {
        let run = try await Self.smashtag("inspect", "--format", "xml", Self.fixture("v1-search.json"))
        #expect(run.status != 0)
        #expect(run.stderr.contains("xml"))
    }
}
