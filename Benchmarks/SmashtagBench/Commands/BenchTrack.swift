import AppStore
import ArgumentParser
import Foundation
import Logging
import Mastodon
import Posts
import SmashtagApp
import StubMastodon
import Synchronization
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tracker at its stated load: `--terms` tracked terms due every `--every` seconds against a stand-in Mastodon
/// (the tests' own, in this process) whose timelines grow while it runs, for `--seconds`. Reported: the process's CPU
/// time per second of wall time (tracker, stand-in and the searches together, so an upper bound for the tracker), how
/// late each run started against its due time, and the latency of a person's new search, one a second: thirty before
/// the load (the idle baseline), then one for each second of it.
struct BenchTrack: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track", abstract: "The tracker's cost at 100 terms every 10 s (CPU, lateness, search latency).")

    @Option(help: "Tracked terms.")
    var terms = 100

    @Option(help: "Seconds between fetches of each term.")
    var every = 10

    @Option(help: "Seconds measured under load.")
    var seconds = 300

    @Option(help: "New posts a second across all the terms' timelines.")
    var postsPerSecond = 20

    @OptionGroup var options: BenchOptions

    private static let idleSearches = 30

    func run() async throws {
        // PostgreSQL when one is named (an empty database: the terms and counts are the benchmark's own), else a
        // SQLite file of its own.
        if try options.postgres != nil {
            try await options.withStore(measure)
        } else {
            try await measure(options.freshStore("bench-track.sqlite"))
        }
    }

    private func measure(_ database: AppDatabase) async throws {
        try await StubMastodon.run { stub, port in
            let mastodon = MastodonClient(configuration: MastodonConfiguration(instance: "http://127.0.0.1:\(port)"))
            let sources = SourceSet([NamedSource(name: "mastodon", title: "Mastodon (stand-in)", source: mastodon)])
            // Tags people search, one a second, each new to the store: thirty before the load (the baseline), then
            // one for each second of it.
            let timelines = Timelines(terms: terms, searched: Self.idleSearches + seconds + 1)
            stub.serve(timelines.grow(by: terms * 5))
            var idle: [Duration] = []
            for tag in 0..<Self.idleSearches {
                try await Task.sleep(for: .seconds(1))
                idle += try await searchLatencies(database, sources, tags: tag..<tag + 1)
            }
            let tracked = TrackedTerms(database: database)
            for number in 0..<terms { try await tracked.track("#t\(number)", TrackingPlan(every: every)) }
            let lateness = Mutex<[Double]>([])
            var tracking = Tracker.Options()
            tracking.onRun = { term, started in
                let late = started.timeIntervalSince(term.due)
                lateness.withLock { $0.append(late) }
            }
            var logger = Logger(label: "smashtag-bench")
            logger.logLevel = .error
            let tracker = Tracker(terms: tracked, sources: sources, options: tracking, logger: logger)
            let running = Task { try await tracker.run() }
            let cpuBefore = Self.cpuSeconds()
            let started = ContinuousClock.now
            var busy: [Duration] = []
            while ContinuousClock.now - started < .seconds(seconds) {
                stub.serve(timelines.grow(by: postsPerSecond))
                try await Task.sleep(for: .seconds(1))
                let tag = Self.idleSearches + busy.count
                busy += try await searchLatencies(database, sources, tags: tag..<tag + 1)
            }
            let cpu = Self.cpuSeconds() - cpuBefore
            let wall = (ContinuousClock.now - started).seconds
            running.cancel()
            _ = await running.result
            let late = lateness.withLock { $0 }.sorted()
            let posts = try await tracked.all().map(\.posts).reduce(0, +)
            report(
                TrackBenchResult(
                    terms: terms, every: every, seconds: Int(wall), runs: late.count, postsCounted: posts,
                    cpuShareOfOneCore: cpu / wall, lateP50s: Self.percentile(late, 0.5),
                    lateP99s: Self.percentile(late, 0.99), lateMaxs: late.last ?? 0,
                    searchIdleP50ms: Self.percentile(idle.map { $0.seconds * 1000 }.sorted(), 0.5),
                    searchBusyP50ms: Self.percentile(busy.map { $0.seconds * 1000 }.sorted(), 0.5),
                    searchIdleP90ms: Self.percentile(idle.map { $0.seconds * 1000 }.sorted(), 0.9),
                    searchBusyP90ms: Self.percentile(busy.map { $0.seconds * 1000 }.sorted(), 0.9)))
        }
    }

    /// The searches a person makes, one for each of `tags` (`#p0`…), each a term new to the store that finds a page of
    /// posts, through the same sources as the tracker.
    private func searchLatencies(
        _ database: AppDatabase, _ sources: SourceSet, tags: Range<Int>
    ) async throws
        -> [Duration]
    {
        let sessions = SearchSessions(database: database)
        var times: [Duration] = []
        for tag in tags {
            let clock = ContinuousClock()
            var page: MergedPage?
            times.append(
                try await clock.measure { page = try await sessions.fetch("#p\(tag)", from: sources, at: .newest) })
            guard let page, !page.posts.isEmpty else {
                let why = page?.failures.map(\.message).joined(separator: " ") ?? ""
                throw BenchFailure("The search for #p\(tag) found nothing. \(why)")
            }
        }
        return times
    }

    /// User and system CPU time of this process so far.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    private static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}

/// The stand-in's statuses: first a page of 20 for each tag people search (`#p0`…), so every search finds as many
/// posts idle as under load; then, as it grows, new ones tagged with the tracked terms' tags in turn (`#t0`…).
private final class Timelines: Sendable {
    private let state: Mutex<[StubMastodon.Status]>
    private let terms: Int

    init(terms: Int, searched: Int) {
        self.terms = terms
        state = Mutex((0..<searched * 20).map { StubMastodon.Status(id: $0 + 1, tags: ["p\($0 / 20)"]) })
    }

    /// Every status so far, after `count` new ones.
    func grow(by count: Int) -> [StubMastodon.Status] {
        state.withLock { statuses in
            let next = statuses.count + 1
            statuses += (next..<next + count).map { StubMastodon.Status(id: $0, tags: ["t\($0 % terms)"]) }
            return statuses
        }
    }
}

private struct TrackBenchResult: Encodable {
    let terms: Int
    let every: Int
    let seconds: Int
    let runs: Int
    let postsCounted: Int
    let cpuShareOfOneCore: Double
    let lateP50s: Double
    let lateP99s: Double
    let lateMaxs: Double
    let searchIdleP50ms: Double
    let searchBusyP50ms: Double
    let searchIdleP90ms: Double
    let searchBusyP90ms: Double
}
