import AppStore
import ArgumentParser
import Corpus
import DemoCorpus
import Exports
import Foundation
import Posts
import SmashtagApp
import Synchronization

/// `smashtag export TERM`: every post fetched for a term (or every corpus post a query matches), as NDJSON or tidy
/// CSV tables, pseudonymised when asked.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the posts fetched for a search term, or the corpus posts a query matches, as a dataset.",
        discussion: """
            ndjson: one post per line, Smashtag's post JSON with "counted" (when it was first counted). csv: a folder \
            (or a .zip) of tables joined by network,post_id: posts.csv, mentions.csv, media.csv, and for a term \
            popularity.csv and network.csv. --pseudonymise replaces every author and mentioned user by a keyed hash \
            (the secret is kept in the data directory as pseudonym-key), drops names and pictures and leaves out \
            links that name a person; the text itself may still identify someone. Written under a temporary name \
            and renamed when whole.
            """
    )

    @Argument(help: "A search term from Recents (case-insensitive).")
    var term: String?

    @Option(help: "Export the corpus posts this query matches, newest first, instead of a term's posts.")
    var query: String?

    @Option(help: "24h, 7d, 30d or all, by the posts' own times.")
    var window: TimeWindow = .all

    @Option(help: "ndjson or csv.")
    var format: DatasetFormat = .ndjson

    @Option(
        help: ArgumentHelp(
            "Where to write: a file (ndjson), a folder or a .zip (csv), or - for standard output (ndjson's default).",
            valueName: "path"))
    var output: String?

    @Flag(help: "Replace the output if it exists.")
    var force = false

    @Flag(help: "Replace people by keyed hashes and drop their names, pictures and profile links.")
    var pseudonymise = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard (term == nil) != (query == nil) else {
            throw ValidationError("Give a search term from Recents, or --query for the corpus, not both.")
        }
        if let query { do { _ = try SearchQuery(parsing: query) } catch { throw ValidationError(error.description) } }
        if format == .csv, destination == "-" { throw ValidationError(DatasetError.tablesNeedPath.description) }
    }

    /// `--output`, else standard output for NDJSON and a folder named for the term for CSV.
    private var destination: String {
        if let output { return output }
        return format == .ndjson ? "-" : DatasetName.of(term ?? query ?? "", window: window)
    }

    func run() async throws {
        // Asked before any work, as the write would be refused at the end.
        if destination != "-" {
            do {
                try DatasetError.refuseExisting(destination, replacing: force)
                if format == .ndjson {
                    try DatasetError.refuseExisting(DataPackage.sidecar(of: destination), replacing: force)
                }
            } catch {
                throw CommandFailure(explaining: error)
            }
        }
        let directory = try DataDirectory(common.dataDirectory)
        let pseudonymiser = try pseudonymise ? Pseudonymiser(secret: PseudonymKey.secret(in: directory.path)) : nil
        let progress = ExportProgress()
        let corpus = try await store.openCorpus(in: directory)
        let demoSeed = try await Demo.seed(of: corpus)
        let count: Int
        let what: String
        if let query {
            let matches = QueryMatches(
                corpus: corpus, query: try SearchQuery(parsing: query),
                since: window.hours.map { Date().addingTimeInterval(-Double($0) * 3600) })
            let batches = matches.map { batch in
                progress.add(batch.count)
                return batch.map { CountedPost(post: $0, counted: nil) }
            }
            let consent = try await store.withStore(in: directory) { try await $0.consentRules() }
            let provenance = Provenance(
                subject: .query(query), window: window, made: Date(), pseudonymised: pseudonymise, demoSeed: demoSeed,
                consent: consent)
            count = try await write(
                Dataset(batches: batches, tables: nil, pseudonymiser: pseudonymiser, provenance: provenance))
            what = "corpus posts matching “\(query)”"
        } else {
            let term = term ?? ""
            (count, what) = try await store.withStore(in: directory) { database in
                try await CommandFailure.reporting {
                    try await exportTerm(term, database, pseudonymiser, demoSeed: demoSeed, progress)
                }
            }
        }
        progress.clear()
        let place = destination == "-" ? "" : " to \(destination)"
        StandardError.write(
            "Exported \(grouped(count)) \(what)\(window == .all ? "" : " in \(window.span)")\(place)"
                + (pseudonymise ? ", pseudonymised." : "."))
    }

    private func exportTerm(
        _ term: String, _ database: AppDatabase, _ pseudonymiser: Pseudonymiser?, demoSeed: UInt64?,
        _ progress: ExportProgress
    ) async throws -> (Int, String) {
        let now = Date()
        guard let batches = try await TermPosts(database: database).batches(of: term, window: window, now: now)
        else { throw DatasetError.notInRecents(term) }
        let tables =
            format == .csv ? try await TermTables.read(for: term, window: window, now: now, in: database) : nil
        let counted = batches.map { batch in
            progress.add(batch.count)
            return batch
        }
        let provenance = Provenance(
            subject: .term(batches.term), window: window, made: now, pseudonymised: pseudonymise, demoSeed: demoSeed,
            rechecks: try await database.recheckState(term: term), consent: try await database.consentRules())
        let count = try await write(
            Dataset(batches: counted, tables: tables, pseudonymiser: pseudonymiser, provenance: provenance))
        return (count, "posts of “\(batches.term)”")
    }

    private func write<Batches>(_ dataset: Dataset<Batches>) async throws -> Int {
        do {
            switch format {
            case .ndjson where destination == "-":
                return try await dataset.writeNDJSON { bytes in FileHandle.standardOutput.write(Data(bytes)) }
            case .ndjson:
                return try await dataset.writeNDJSON(at: destination, replacing: force)
            case .csv where destination.lowercased().hasSuffix(".zip"):
                return try await dataset.writeZip(at: destination, replacing: force)
            case .csv:
                return try await dataset.writeFolder(at: destination, replacing: force)
            }
        } catch let error as DatasetError {
            throw CommandFailure(explaining: error)
        }
    }
}

/// The count of posts written so far, on a terminal's progress line.
private final class ExportProgress: Sendable {
    private let state = Mutex((line: ProgressLine(), count: 0))

    func add(_ posts: Int) {
        state.withLock { state in
            state.count += posts
            let count = state.count
            state.line.show { seconds in
                "Exporting: \(grouped(count)) posts, \(grouped(Int(Double(count) / max(seconds, 0.001))))/s"
            }
        }
    }

    func clear() {
        state.withLock { $0.line.clear() }
    }
}

extension DatasetFormat: ExpressibleByArgument {}
