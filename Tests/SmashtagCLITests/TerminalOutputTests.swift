import Foundation
import Testing

/// Posts whose text, names and hashtags carry what a terminal obeys (escape sequences that retitle the window, clear
/// the screen, recolour; BEL; a CR that writes over the line; bidirectional overrides and isolates that reorder it):
/// every text output shows them as visible escapes, and JSON keeps them exact.
@Suite(.serialized) struct TerminalOutputTests {
    /// An X v2 search page: the text holds an OSC title, BEL, a CR, an override and a clear-screen in a hashtag (twice,
    /// so popularity lists it), the author's name an isolate and a C1 CSI.
    static let page = #"""
        {"data": [
          {"id": "1900000000000000011", "author_id": "7", "created_at": "2025-03-01T12:00:00.000Z",
           "text": "\u001b]0;pwned\u0007 hi\rHIDDEN \u202eevil #tag\u001b[2Jx",
           "entities": {"hashtags": [{"start": 27, "end": 37, "tag": "tag\u001b[2Jx"}]}},
          {"id": "1900000000000000012", "author_id": "7", "created_at": "2025-03-01T12:01:00.000Z",
           "text": "again #tag\u001b[2Jx",
           "entities": {"hashtags": [{"start": 6, "end": 16, "tag": "tag\u001b[2Jx"}]}}
        ],
        "includes": {"users": [{"id": "7", "username": "eve", "name": "\u2066Eve\u009b31m\u2069"}]},
        "meta": {"result_count": 2}}
        """#

    /// What a terminal would obey: C0 but LF, DEL, C1, embeddings, overrides and isolates.
    static func obeyed(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    private let directory: String
    private let file: String

    init() throws {
        directory = try SmashtagRun.temporaryDirectory()
        file = directory + "/hostile.json"
        try Self.page.write(toFile: file, atomically: true, encoding: .utf8)
    }

    private func smashtag(_ arguments: String...) async throws -> SmashtagRun {
        let run = try await SmashtagRun.run(arguments + ["--data-dir", directory])
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        return run
    }

    @Test func inspectShowsControlsAsEscapesAndItsJSONStaysExact() async throws {
        let text = try await smashtag("inspect", file)
        #expect(Self.obeyed(text.stdout).isEmpty, "\(text.stdout.debugDescription)")
        #expect(text.stdout.contains(#"\u{1B}]0;pwned\u{7} hi\u{D}HIDDEN \u{202E}evil #tag\u{1B}[2Jx"#))
        #expect(text.stdout.contains(#"\u{2066}Eve\u{9B}31m\u{2069}"#))

        let json = try await smashtag("inspect", "--format", "json", file)
        let first = try #require(json.stdout.split(separator: "\n").first)
        let post = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(post["text"] as? String == "\u{1B}]0;pwned\u{7} hi\rHIDDEN \u{202E}evil #tag\u{1B}[2Jx")
        #expect((post["user"] as? [String: Any])?["name"] as? String == "\u{2066}Eve\u{9B}31m\u{2069}")
    }

    @Test func searchPopularityTrendAndRecentsShowControlsAsEscapes() async throws {
        _ = try await smashtag("import", file)
        let term = "again OR hidden"
        for run in [
            try await smashtag("search", term), try await smashtag("search", "\u{202E}evil"),
            try await smashtag("popularity", term), try await smashtag("trend", term),
            try await smashtag("trend", term, "--mention", "#tag\u{1B}[2Jx"), try await smashtag("recents"),
        ] {
            #expect(Self.obeyed(run.stdout + run.stderr).isEmpty, "\((run.stdout + run.stderr).debugDescription)")
        }
        let popularity = try await smashtag("popularity", term)
        #expect(popularity.stdout.contains(#"#tag\u{1B}[2Jx  2"#), "\(popularity.stdout)")
        let recents = try await smashtag("recents")
        #expect(recents.stdout == #"\u{202E}evil"# + "\nagain OR hidden\n")
        let json = try await smashtag("popularity", term, "--format", "json")
        #expect(json.stdout.contains(##""mention":"#tag\u001b[2Jx""##), "JSON escapes C0 itself: \(json.stdout)")
    }

    /// CSV is exact for a program reading it, escaped when a person's terminal shows it.
    @Test func csvIsExactThroughAPipeAndEscapedOnATerminal() async throws {
        _ = try await smashtag("import", file)
        _ = try await smashtag("search", "again OR hidden")
        let piped = try await smashtag("popularity", "again OR hidden", "--format", "csv")
        #expect(piped.stdout.contains("#tag\u{1B}[2Jx"))
        // `script` gives the command a terminal of its own and copies what it shows.
        let shown = try await SmashtagRun.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"),
            [
                "-qec",
                "\(SmashtagRun.executable.path) popularity 'again OR hidden' --format csv --data-dir \(directory)",
                "/dev/null",
            ])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains(#"#tag\u{1B}[2Jx"#), "\(shown.stdout.debugDescription)")
        #expect(!shown.stdout.contains("\u{1B}[2J"))
    }
}
