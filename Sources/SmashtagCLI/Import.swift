import ArgumentParser
import Corpus
import FileImport
import Posts
import SmashtagApp
import WireJSON

/// `smashtag import FILE...`: add files of posts of any supported format and network to the corpus.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Import files of posts from X, Mastodon and Bluesky, or Smashtag's own export, into the local corpus.",
        discussion: """
            The format is recognised from the content, item by item: X's twarc/twarc2 JSON Lines, v1.1 or v2 JSON, \
            Activity Streams and archive tweets.js; Mastodon statuses as the REST API and Mastodon.py return them \
            (an array, or one status per line); Bluesky's searchPosts, getPosts, getAuthorFeed and other feed \
            answers as minet and the atproto SDKs save them (one document, or one per line); Smashtag's NDJSON \
            export. Streams each file (memory stays flat however big it is), one transaction per batch. Importing a \
            file again adds nothing: a post is known by its network and id. Malformed lines and posts are reported \
            with file and line and skipped; the exit status is then non-zero.
            """
    )

    @Argument(help: "Files to import.")
    var files: [String]

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        MallocArenas.limitToTwo()
        let corpus = try await store.openCorpus(in: DataDirectory(common.dataDirectory))
        let importer = PostImporter(corpus: corpus)
        let bytes = files.reduce(0) { $0 + PostFileReader.size(of: $1) }
        var progress = ProgressLine()
        var problems = ProblemLog()
        var totals = ImportTotals()
        var unreadable = 0
        for file in files {
            do {
                totals = totals + (try await importFile(file, importer, totals, of: bytes, &progress, &problems))
            } catch let problem as DecodingProblem {
                progress.clear()
                StandardError.write("smashtag: \(problem)")
                unreadable += 1
            }
        }
        progress.clear()
        problems.reportUnprinted("skipped")
        print(summary(totals, seconds: progress.elapsed.seconds))
        if totals.skipped > 0 || unreadable > 0 { throw ExitCode.failure }
    }

    private func importFile(
        _ file: String, _ importer: PostImporter, _ before: ImportTotals, of bytes: Int,
        _ progress: inout ProgressLine, _ problems: inout ProblemLog
    ) async throws -> ImportTotals {
        var notes = SkippedNotes()
        let totals = try await importer.importFile(file) { event in
            switch event {
            case .progress(let sofar):
                progress.show { seconds in
                    let all = before + sofar
                    return
                        """
                        Importing \(file): \(grouped(all.read)) \
                        posts, \(grouped(Int(Double(all.read) / max(seconds, 0.001))))/s\
                        \(Self.estimate(read: all.bytesRead, of: bytes, seconds: seconds))
                        """
                }
            case .malformed(let problem):
                progress.clear()
                problems.add(problem, suffix: " (skipped)")
            case .note(let note):
                notes.add(note)
            }
        }
        progress.clear()
        notes.report()
        return totals
    }

    /// “, 42 % — about 3 min left”, from the share of the files read so far; nothing before there is a fair
    /// guess.
    static func estimate(read: Int, of total: Int, seconds: Double) -> String {
        guard total > 0, read > 0, seconds >= 2 else { return "" }
        let share = min(Double(read) / Double(total), 1)
        let left = seconds * (1 - share) / share
        let time = left < 90 ? "\(Int(left.rounded(.up))) s" : "\(Int((left / 60).rounded())) min"
        return ", \(Int(share * 100)) % — about \(time) left"
    }

    private func summary(_ totals: ImportTotals, seconds: Double) -> String {
        let rate = seconds > 0 ? " in \(Int(seconds.rounded(.up)))s" : ""
        let withheld =
            totals.withheld == 0
            ? "" : ", \(grouped(totals.withheld)) withheld (their authors have not opted in to search)"
        return
            """
            Imported \(postCount(totals.imported)), \(counted(totals.duplicates, "duplicate")), \
            \(grouped(totals.skipped)) skipped\(withheld)\(rate).
            """
    }
}
