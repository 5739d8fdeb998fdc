import AppStore
import ArgumentParser
import Corpus
import DemoCorpus
import Foundation
import Posts
import SmashtagApp
import Twitter

/// Counting throughput and popularity-query latency at a large size, beside the lecture's one-query-per-row
/// approach on the same database (docs/PERFORMANCE.md).
struct BenchPopularity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "popularity", abstract: "Popularity counting throughput and query latency.")

    @Option(help: "(term, tweet) links to fill the store with first.")
    var links = 10_000_000

    @Option(help: "Terms the links are spread over (at most 97: the three benchmark terms must fit in Recents).")
    var terms = 97

    @Option(help: "Pages of 100 tweets to count, for each approach.")
    var pages = 100

    @OptionGroup var options: BenchOptions
    /// `--database`: an empty PostgreSQL database to measure on, instead of a new SQLite file in the data directory.

    func run() async throws {
        if try options.postgres != nil {
            try await options.withStore { database in try await measure(database, onPostgres: true) }
        } else {
            try await measure(try await options.freshStore("bench-popularity.sqlite"), onPostgres: false)
        }
    }

    private func measure(_ database: AppDatabase, onPostgres: Bool) async throws {
        let fill = try await ContinuousClock().measure {
            if onPostgres {
                try await database.fillPostgresForBenchmark(links: links, terms: min(terms, 97), mentions: 3_000)
            } else {
                try await database.fillSQLiteForBenchmark(links: links, terms: min(terms, 97), mentions: 3_000)
            }
        }
        report("fill", ["links": Double(links), "seconds": fill.seconds], label: onPostgres ? "PostgreSQL" : "SQLite")
        var generator = DemoGenerator(seed: 5, count: pages * 300, end: .now)
        let ours = try await countingRate(pages: pages, generator: &generator) { page in
            _ = try await SearchSessions(database: database).fetch(
                "bench batched", from: SourceSet(only: FixedPosts(posts: page)), at: .newest, count: page.count)
        }
        let lecture = try await countingRate(pages: pages, generator: &generator) { page in
            if let baseline = PostgresBaseline(database: database) {
                try await baseline.count(page, under: "bench lecture")
            } else {
                try await SQLiteBaseline(database: database).count(page, under: "bench lecture")
            }
        }
        var figures = [
            "batchedTweetsPerSecond": ours, "lectureTweetsPerSecond": lecture, "ratioToLecture": ours / lecture,
        ]
        if !onPostgres {
            let indexed = try await countingRate(pages: pages, generator: &generator) { page in
                try await SQLiteBaseline(database: database, caseInsensitiveLookups: false).count(
                    page, under: "bench indexed")
            }
            figures.merge(["indexedLookupsTweetsPerSecond": indexed, "ratioToIndexedLookups": ours / indexed]) { $1 }
        }
        report("counting", figures)
        for term in ["bench batched", "filler 50"] { try await queryLatency(database, term) }
        if let baseline = PostgresPopularityBaseline(database: database) {
            try await baselineLatency(database, baseline)
        }
        try await trendLatency(database)
        try await networkLatency(database)
    }

    /// The network of a filler term (3,000 mentions, every hour of a year) as the page and the exports ask for it:
    /// all time and the last 30 days, 30, 50 and 100 nodes; and a window's popularity table with its momentum.
    private func networkLatency(_ database: AppDatabase) async throws {
        let popularity = Popularity(database: database)
        for (window, top) in [(TimeWindow.all, 30), (.all, 50), (.all, 100), (.month, 50), (.week, 50)] {
            var edges = 0
            let times = try await latencies {
                edges =
                    try await popularity.network(for: "filler 50", NetworkOptions(window: window, top: top))?
                    .edges.count ?? 0
            }
            report(
                "network", ["edges": Double(edges), "p50ms": times.p50, "p99ms": times.p99],
                label: "filler 50 top \(top) \(window)")
        }
        var rows = 0
        let times = try await latencies {
            let table = try await popularity.table(for: "filler 50", window: .month)
            rows = table.sections.map(\.rows.count).reduce(0, +)
        }
        report("query", ["rows": Double(rows), "p50ms": times.p50, "p99ms": times.p99], label: "filler 50 30d")
    }

    /// A filler term's busiest mention names a post in every hour of a year: the longest series there is, by hour
    /// (8,760 points) and by day; then the sparklines of all of the term's 3,000 mentions.
    private func trendLatency(_ database: AppDatabase) async throws {
        let trends = Trends(database: database)
        for bucket in TrendBucket.allCases {
            var points = 0
            let times = try await latencies {
                points = try await trends.series(term: "filler 50", mention: "#filler1", bucket: bucket).points.count
            }
            report(
                "trend", ["points": Double(points), "p50ms": times.p50, "p99ms": times.p99],
                label: "filler 50 #filler1 by \(bucket.rawValue)")
        }
        let times = try await latencies { _ = try await trends.sparklines(term: "filler 50") }
        report("sparklines", ["p50ms": times.p50, "p99ms": times.p99], label: "filler 50")
    }

    /// 300 runs of `body`: the median and 99th percentile, in milliseconds.
    private func latencies(_ body: () async throws -> Void) async throws -> (p50: Double, p99: Double) {
        var times: [Duration] = []
        for _ in 0..<300 {
            let started = ContinuousClock.now
            try await body()
            times.append(ContinuousClock.now - started)
        }
        return Self.percentiles(times)
    }

    private static func percentiles(_ times: [Duration]) -> (p50: Double, p99: Double) {
        let times = times.sorted()
        return (times[times.count / 2].seconds * 1000, times[times.count * 99 / 100].seconds * 1000)
    }

    private func countingRate(
        pages: Int, generator: inout DemoGenerator, count: ([Post]) async throws -> Void
    ) async throws -> Double {
        let batches = (0..<pages).map { _ in generator.next(100) }
        let elapsed = try await ContinuousClock().measure { for page in batches { try await count(page) } }
        return Double(pages * 100) / elapsed.seconds
    }

    /// The 3,000-mention term's table read today and as the release before issue 39 read it, on copies of the same
    /// rows in that release's shape, the two reads taking turns so that both meet the same machine.
    private func baselineLatency(_ database: AppDatabase, _ baseline: PostgresPopularityBaseline) async throws {
        try await baseline.prepare()
        var (today, before) = ([Duration](), [Duration]())
        var rows = (0, 0)
        for _ in 0..<300 {
            today.append(
                try await ContinuousClock().measure {
                    let table = try await Popularity(database: database).table(for: "filler 50")
                    rows.0 = table.sections.map(\.rows.count).reduce(0, +)
                })
            before.append(
                try await ContinuousClock().measure { rows.1 = try await baseline.table(for: "filler 50").count })
        }
        try await baseline.drop()
        for (label, times, count) in [
            ("filler 50, taking turns", today, rows.0), ("filler 50, before (baseline)", before, rows.1),
        ] {
            let (p50, p99) = Self.percentiles(times)
            report("query", ["rows": Double(count), "p50ms": p50, "p99ms": p99], label: label)
        }
    }

    private func queryLatency(_ database: AppDatabase, _ term: String) async throws {
        var rows = 0
        let times = try await latencies {
            let table = try await Popularity(database: database).table(for: term)
            rows = table.sections.map(\.rows.count).reduce(0, +)
        }
        report("query", ["rows": Double(rows), "p50ms": times.p50, "p99ms": times.p99], label: term)
    }

    private func report(_ name: String, _ values: [String: Double], label: String? = nil) {
        let figures = values.sorted { $0.key < $1.key }.map { "\($0.key)=\(String(format: "%.2f", $0.value))" }
        print(([name] + (label.map { ["“\($0)”"] } ?? []) + figures).joined(separator: " "))
    }
}
