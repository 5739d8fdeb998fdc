import ArgumentParser
import Corpus
import Foundation
import Posts
import Twitter

/// `smashtag bench …`: the committed benchmarks behind docs/PERFORMANCE.md. Run them from a release build.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure Smashtag's performance targets (build with -c release).",
        subcommands: [BenchDecode.self, BenchSearch.self, BenchSession.self, BenchTerms.self, BenchPopularity.self, BenchCountPage.self, BenchCountTogether.self, BenchIngest.self]
    )
}

/// Decoding throughput: read and decode every tweet of the files, several passes, median pass reported.
struct BenchDecode: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decode", abstract: "Decoding throughput in tweets/s and MB/s.")

    @Argument(help: "Post files, e.g. twarc2 JSON Lines (Benchmarks/decode/make_corpus.sh makes one).")
    var files: [String]

    @Option(help: "Passes over the files; the median is reported.")
    var `repeat` = 5

    func run() throws {
        var passes: [Duration] = []
        var tweets = 0
        var bytes = 0
        for _ in 0..<max(1, self.repeat) {
            let clock = ContinuousClock()
            var counted = (tweets: 0, bytes: 0)
            passes.append(try clock.measure { counted = try decodeAll() })
            (tweets, bytes) = counted
        }
        let seconds = passes.sorted()[passes.count / 2].seconds
        let result = DecodeBenchResult(
            impl: "swift-smashtag", tweets: tweets, bytes: bytes, seconds: seconds,
            tweetsPerSecond: Double(tweets) / seconds, megabytesPerSecond: Double(bytes) / 1e6 / seconds,
            bestSeconds: passes.min()!.seconds
        )
        print(TweetPrinter.json(result))
    }

    private func decodeAll() throws -> (tweets: Int, bytes: Int) {
        var tweets = 0
        var bytes = 0
        for file in files {
            bytes += try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
            for case .tweet in try TweetFileReader(path: file) { tweets += 1 }
        }
        return (tweets, bytes)
    }
}

private struct DecodeBenchResult: Encodable {
    let impl: String
    let tweets: Int
    let bytes: Int
    let seconds: Double
    let tweetsPerSecond: Double
    let megabytesPerSecond: Double
    let bestSeconds: Double
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// First-page latency of searches on a corpus: each query many times, percentiles reported.
struct BenchSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "First-page search latency (p50/p99) on the corpus.")

    @Argument(help: "Queries, e.g. '#tag' 'from:user' word 'a OR b'.")
    var queries: [String]

    @Option(help: "Tweets per page.")
    var count = 20

    @Option(help: "Searches per query.")
    var iterations = 500

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let corpus = try TweetCorpus.open(at: DataDirectory(common.dataDirectory).corpus)
        for query in queries {
            let parsed = try SearchQuery(parsing: query)
            var found = 0
            var times = Latencies()
            for _ in 0..<iterations {
                try await times.measure { found = try await corpus.search(parsed, .newest, count: count).tweets.count }
            }
            print(TweetPrinter.json(SearchBenchResult(query: query, tweets: found, p50ms: times.percentile(0.5), p99ms: times.percentile(0.99), maxms: times.percentile(1))))
        }
    }
}

/// Timings of repeated runs, reported as percentiles in milliseconds.
struct Latencies {
    private var times: [Duration] = []

    mutating func measure(_ body: () async throws -> Void) async rethrows {
        let started = ContinuousClock.now
        try await body()
        times.append(ContinuousClock.now - started)
    }

    /// `p` from 0 to 1 (1: the slowest).
    func percentile(_ p: Double) -> Double {
        let sorted = times.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))].seconds * 1000
    }

    var count: Int { times.count }

    var meanMilliseconds: Double {
        times.reduce(Duration.zero, +).seconds * 1000 / Double(max(times.count, 1))
    }
}

private struct SearchBenchResult: Encodable {
    let query: String
    let tweets: Int
    let p50ms: Double
    let p99ms: Double
    let maxms: Double
}
