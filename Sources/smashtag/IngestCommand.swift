#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Corpus
import Dispatch
import Foundation
import Logging
import Smashtag
import Synchronization

/// `smashtag ingest bluesky`: Bluesky's public firehose (Jetstream) into the corpus, live, no account needed.
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Index a live stream of posts into the local corpus.",
        subcommands: [IngestBluesky.self]
    )
}

struct IngestBluesky: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bluesky",
        abstract: "Index every new Bluesky post from Jetstream, Bluesky's public firehose, until stopped (Ctrl-C).",
        discussion: """
            Reads SMASHTAG_JETSTREAM_URL (default: \(JetstreamLiveIndex.defaultURL)). Commits at least every second, \
            with the stream's cursor; stopped or killed, it resumes where the last commit left off and stores no post \
            twice. Deleted posts leave the corpus. The posts are searchable at once (`smashtag search`, `serve`).
            """
    )

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let corpus = try TweetCorpus.open(at: DataDirectory(common.dataDirectory).corpus)
        let url = ProcessInfo.processInfo.environment["SMASHTAG_JETSTREAM_URL"] ?? JetstreamLiveIndex.defaultURL
        var logger = Logger(label: "smashtag")
        logger.logLevel = .warning
        let index = JetstreamLiveIndex(corpus: corpus, url: url, logger: logger)
        let report = IngestReport()
        let running = Task { try await index.run { report.show($0) } }
        let stop = StopSignals { running.cancel() }
        let total = try await running.value
        stop.cancel()
        report.finish(total)
    }
}

/// Progress while ingesting: a line rewritten on a terminal, a log line every ten seconds otherwise, and a summary.
final class IngestReport: Sendable {
    private struct State {
        var line = ProgressLine()
        var lastLogged = ContinuousClock.now
    }

    private let state = Mutex(State())
    private let isTerminal = isatty(STDERR_FILENO) == 1

    func show(_ progress: IngestProgress) {
        state.withLock { state in
            let text = Self.describe(progress, seconds: state.line.elapsed.seconds)
            if isTerminal {
                state.line.show { _ in text }
            } else if ContinuousClock.now - state.lastLogged >= .seconds(10) {
                state.lastLogged = .now
                StandardError.write(text)
            }
        }
    }

    func finish(_ total: IngestProgress) {
        state.withLock { $0.line.clear() }
        for problem in total.problems { StandardError.write("smashtag: skipped: \(problem)") }
        let cursor = total.cursor.map { " Resumes from \(Self.time(of: $0))." } ?? ""
        print("Stored \(grouped(total.posts)) posts (\(grouped(total.duplicates)) already stored), deleted \(grouped(total.deleted)), skipped \(grouped(total.skipped)).\(cursor)")
    }

    /// `12,345 posts · 2,034/s · 0.8 s behind · 3 deleted · 1 skipped`.
    private static func describe(_ progress: IngestProgress, seconds: Double) -> String {
        let rate = seconds > 0 ? Int(Double(progress.posts) / seconds) : 0
        let lag = progress.cursor.map { String(format: " · %.1f s behind", max(0, Date().timeIntervalSince1970 - Double($0) / 1_000_000)) } ?? ""
        return "\(grouped(progress.posts)) posts · \(grouped(rate))/s\(lag) · \(grouped(progress.deleted)) deleted · \(grouped(progress.skipped)) skipped"
    }

    private static func time(of cursor: Int64) -> String {
        Date(timeIntervalSince1970: Double(cursor) / 1_000_000).formatted(.iso8601)
    }
}

/// SIGINT and SIGTERM run `stop` (once each) instead of ending the process, so what was received is committed.
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(stop: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
