import AppStore
import ArgumentParser
import Corpus
import Foundation
import Posts
import SmashtagApp
import Synchronization

/// Searches that each record a term Recents no longer holds, as the web benchmark's varied queries do, without the
/// HTTP server or the page: `SearchSessions.fetch` from many tasks at once, over queries more numerous than Recents
/// keeps, so every search adds a term, counts its page and pushes the oldest term out. The app database is made
/// afresh (`bench-terms.sqlite`), or is the empty PostgreSQL database `--database` names, and is filled by one pass
/// first. The corpus is the data directory's SQLite file either way, so the two stores are measured on the same
/// searches. What it measures is the writer (docs/PERFORMANCE.md).
struct BenchTerms: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terms", abstract: "Throughput of searches that each record a new term (searches/s).")

    @Argument(help: "A file of queries, one per line: more of them than Recents keeps (100).")
    var queries: String

    @Option(help: "Searches under way at once.")
    var concurrency = 32

    @Option(help: "Seconds measured, after one pass over the queries.")
    var seconds = 10

    @Option(help: "Posts per page (the Search page shows 25).")
    var count = 25

    @OptionGroup var options: BenchOptions

    func run() async throws {
        guard let text = try? String(contentsOfFile: queries, encoding: .utf8) else {
            throw BenchFailure("cannot read the queries file “\(queries)”")
        }
        let terms = text.split(separator: "\n").map(String.init)
        guard terms.count > Recents.limit else {
            throw ValidationError(
                "\(queries) has \(terms.count) queries: every search must be a new term, so more than \(Recents.limit)")
        }
        let directory = try options.directory
        let sources = SourceSet(only: CorpusSource(corpus: try await SQLiteCorpus.open(at: directory.corpus)))
        let searches =
            if try options.postgres != nil {
                try await options.withStore { database in
                    guard try await Recents(database: database).terms().isEmpty else {
                        throw BenchFailure("the benchmark records into an empty database: give it a new one")
                    }
                    return try await measure(terms, SearchSessions(database: database), sources)
                }
            } else {
                try await measure(
                    terms, SearchSessions(database: try await options.freshStore("bench-terms.sqlite")), sources)
            }
        report(
            TermsBenchResult(
                store: try options.postgres == nil ? "SQLite" : "PostgreSQL", queries: terms.count,
                concurrency: concurrency, seconds: seconds, searches: searches,
                searchesPerSecond: Double(searches) / Double(seconds)))
    }

    /// Searches done in `seconds` by `concurrency` tasks taking the queries in turn, after one pass that fills Recents.
    private func measure(_ terms: [String], _ sessions: SearchSessions, _ sources: SourceSet) async throws -> Int {
        for term in terms { _ = try await sessions.fetch(term, from: sources, at: .newest, count: count) }
        let next = QueryTurn(of: terms.count)
        let (count, concurrency) = (count, concurrency)
        let deadline = ContinuousClock.now + .seconds(seconds)
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var done = 0
                    while ContinuousClock.now < deadline {
                        _ = try await sessions.fetch(terms[next.take()], from: sources, at: .newest, count: count)
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
    }
}

/// The next query's index, shared by the tasks: round and round the file.
private final class QueryTurn: Sendable {
    private let taken = Atomic(0)
    private let count: Int

    init(of count: Int) {
        self.count = count
    }

    func take() -> Int {
        taken.add(1, ordering: .relaxed).oldValue % count
    }
}

private struct TermsBenchResult: Encodable {
    let store: String
    let queries: Int
    let concurrency: Int
    let seconds: Int
    let searches: Int
    let searchesPerSecond: Double
}
