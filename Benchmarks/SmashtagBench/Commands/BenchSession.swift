import AppStore
import ArgumentParser
import Corpus
import Foundation
import Posts
import SmashtagApp

/// A repeated search as the web app's Search page runs it: `SearchSessions.fetch` of the same query at the newest
/// position, on the data directory's corpus, recorded in an app database of its own (`bench-session.sqlite`,
/// made afresh). Nothing else changes the corpus meanwhile, so this is the path the page cache and the skipped
/// write serve (docs/PERFORMANCE.md).
struct BenchSession: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Latency of a repeated search through SearchSessions (p50/p99).")

    @Argument(help: "The query, e.g. '#stanford'.")
    var query: String

    @Option(help: "Tweets per page (the Search page shows 25).")
    var count = 25

    @Option(help: "Searches after the first.")
    var iterations = 5_000

    @OptionGroup var options: BenchOptions

    func run() async throws {
        let directory = try options.directory
        let source = CorpusSource(corpus: try await SQLiteCorpus.open(at: directory.corpus))
        let sessions = SearchSessions(database: try await options.freshStore("bench-session.sqlite"))
        let sources = SourceSet(only: source)
        let started = ContinuousClock.now
        let found = try await sessions.fetch(query, from: sources, at: .newest, count: count).posts.count
        let first = ContinuousClock.now - started
        var times = Latencies()
        for _ in 0..<iterations {
            try await times.measure { _ = try await sessions.fetch(query, from: sources, at: .newest, count: count) }
        }
        report(
            SessionBenchResult(
                query: query, tweets: found, firstms: first.seconds * 1000, iterations: iterations,
                p50ms: times.percentile(0.5), p99ms: times.percentile(0.99), meanms: times.meanMilliseconds
            ))
    }
}

private struct SessionBenchResult: Encodable {
    let query: String
    let tweets: Int
    let firstms: Double
    let iterations: Int
    let p50ms: Double
    let p99ms: Double
    let meanms: Double
}
