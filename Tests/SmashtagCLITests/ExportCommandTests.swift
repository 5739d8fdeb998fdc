import Foundation
import Testing

/// `smashtag export` when things go wrong: a disk that fills leaves nothing under the final name and says so, an
/// existing output asks for `--force`, a term not in Recents and tables with nowhere to go are refused in a sentence.
@Suite struct ExportCommandTests {
    let directory: String

    init() throws {
        directory = try SmashtagRun.temporaryDirectory()
    }

    private func smashtag(_ arguments: String...) async throws -> SmashtagRun {
        try await SmashtagRun.run(arguments + ["--data-dir", directory])
    }

    /// `smashtag` with files limited to `blocks` of 512 bytes: a write past it fails (EFBIG) as on a full disk, the
    /// signal that would kill the process ignored.
    private func smashtagOnASmallDisk(blocks: Int, _ arguments: String...) async throws -> SmashtagRun {
        let command = ([SmashtagRun.executable.path] + arguments + ["--data-dir", directory]).map { "'\($0)'" }
        return try await SmashtagRun.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "trap '' XFSZ; ulimit -f \(blocks); exec " + command.joined(separator: " ")])
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("out") }.sorted()
    }

    @Test func aWriteThatFailsMidwayLeavesNoHalfFileAndSaysSo() async throws {
        #expect(try await smashtag("search", "#swift", "--count", "100").status == 0)
        #expect(try await smashtag("search", "#swift", "--count", "100", "--older").status == 0)
        // The searches' counts are added when first read, a write of the database's own: made here, with room, so that
        // what fails below is the export's file.
        #expect(try await smashtag("popularity", "#swift").status == 0)
        // 40 KB: room for SQLite's 32 KB shared-memory file, not for 200 posts.
        let file = try await smashtagOnASmallDisk(blocks: 80, "export", "#swift", "--output", directory + "/out.ndjson")
        #expect(file.status == 1)
        #expect(file.stderr.contains("Could not write “\(directory)/out.ndjson”"), "\(file.stderr)")
        #expect(file.stderr.contains("Nothing was left under that name."))
        let tables = try await smashtagOnASmallDisk(
            blocks: 80, "export", "#swift", "--format", "csv", "--output", directory + "/out")
        #expect(tables.status == 1)
        #expect(tables.stderr.contains("Could not write"), "\(tables.stderr)")
        let left = try leftovers()
        #expect(left.isEmpty, "no temporary file or folder is left: \(left)")
        // With room, the same export is whole.
        let whole = try await smashtag("export", "#swift", "--output", directory + "/out.ndjson")
        #expect(whole.status == 0)
        let lines = try String(contentsOfFile: directory + "/out.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 200)
        #expect(whole.stderr.contains("Exported 200 posts of “#swift” to \(directory)/out.ndjson."), "\(whole.stderr)")
    }

    @Test func anExistingOutputAsksForForce() async throws {
        #expect(try await smashtag("search", "#swift").status == 0)
        try "mine".write(toFile: directory + "/out.ndjson", atomically: true, encoding: .utf8)
        let refused = try await smashtag("export", "#swift", "--output", directory + "/out.ndjson")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("exists already: give --force to replace it"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: directory + "/out.ndjson", encoding: .utf8) == "mine")
        #expect(try await smashtag("export", "#swift", "--output", directory + "/out.ndjson", "--force").status == 0)
        #expect(try String(contentsOfFile: directory + "/out.ndjson", encoding: .utf8).hasPrefix("{"))
    }

    @Test func whatAKilledExportLeftBehindIsRemovedByTheNext() async throws {
        #expect(try await smashtag("search", "#swift").status == 0)
        // A process that has ended: its temporary files are abandoned.
        let ended = try ChildProcess(URL(fileURLWithPath: "/bin/true"), [])
        try await SmashtagRun.exit(of: ended)
        let abandoned = directory + "/.out.ndjson.partial-\(ended.processIdentifier)"
        try "half a file".write(toFile: abandoned, atomically: false, encoding: .utf8)
        #expect(try await smashtag("export", "#swift", "--output", directory + "/out.ndjson").status == 0)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(try leftovers() == ["out.datapackage.json", "out.ndjson"])
    }

    @Test func aTermNotInRecentsOrTablesWithNowhereToGoAreRefused() async throws {
        let unknown = try await smashtag("export", "#nothing")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("“#nothing” is not in Recents"), "\(unknown.stderr)")
        let tables = try await smashtag("export", "#swift", "--format", "csv", "--output", "-")
        #expect(tables.status != 0)
        #expect(tables.stderr.contains("CSV tables are several files"), "\(tables.stderr)")
        let both = try await smashtag("export", "#swift", "--query", "#swift")
        #expect(both.status != 0)
    }
}
