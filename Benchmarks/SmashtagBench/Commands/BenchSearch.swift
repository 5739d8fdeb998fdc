import ArgumentParser
import Corpus
import Foundation
import Posts
import SmashtagApp
import Twitter

/// First-page latency of searches on a corpus: each query many times, percentiles reported.
struct BenchSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "First-page search latency (p50/p99) on the corpus.")

    @Argument(help: "Queries, e.g. '#tag' 'from:user' word 'a OR b'.")
    var queries: [String]

    @Option(help: "Tweets per page.")
    var count = 20

    @Option(help: "Searches per query.")
    var iterations = 500

    @OptionGroup var options: BenchOptions

    func run() async throws {
        let corpus = try await options.openCorpus()
        for query in queries {
            let parsed = try SearchQuery(parsing: query)
            var found = 0
            var times = Latencies()
            for _ in 0..<iterations {
                try await times.measure { found = try await corpus.search(parsed, .newest, count: count).posts.count }
            }
            report(
                SearchBenchResult(
                    query: query, tweets: found, p50ms: times.percentile(0.5), p99ms: times.percentile(0.99),
                    maxms: times.percentile(1)))
        }
    }
}

private struct SearchBenchResult: Encodable {
    let query: String
    let tweets: Int
    let p50ms: Double
    let p99ms: Double
    let maxms: Double
}
