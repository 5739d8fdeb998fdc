import ArgumentParser
import Corpus
import FileImport
import Posts

/// `smashtag inspect FILE...`: decode and print, store nothing.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode files of posts in any format `import` reads and print the posts; nothing is stored.",
        discussion: "Malformed lines are reported on stderr with their file and line; the exit status is then non-zero."
    )

    @Argument(
        help: """
            Files to read: X's v1.1 or v2 JSON, twarc/twarc2 JSON Lines, archive tweets.js; Mastodon statuses; \
            Bluesky post views and answers; Smashtag's NDJSON export.
            """)
    var files: [String]

    @Option(help: "text (coloured on a terminal) or json (JSON Lines, one post per line).")
    var format: OutputFormat = .text

    @OptionGroup var common: CommonOptions

    func run() throws {
        MallocArenas.limitToTwo()
        var printer = PostPrinter(format: format, style: TerminalStyle.standardOutput)
        var problems = ProblemLog()
        var failed = false
        for file in files {
            failed = !inspect(file, printer: &printer, problems: &problems) || failed
        }
        problems.reportUnprinted("could not be read")
        if failed { throw ExitCode.failure }
    }

    /// Prints one file's posts; returns false if anything in it could not be read.
    private func inspect(_ file: String, printer: inout PostPrinter, problems: inout ProblemLog) -> Bool {
        var reader: PostFileReader
        do {
            reader = try PostFileReader(path: file, writing: printer.readerWriting)
        } catch {
            StandardError.write("smashtag: \(error)")
            return false
        }
        var skipped = SkippedNotes()
        var clean = true
        while let event = reader.next() {
            switch event {
            case .post(let post): printer.print(post)
            case .written(let posts): printer.print(posts)
            case .malformed(let problem):
                printer.flush()
                problems.add(problem)
                clean = false
            case .note(let note): skipped.add(note)
            }
        }
        printer.flush()
        skipped.report()
        return clean
    }
}
