import AppStore
import ArgumentParser
import Exports
import Foundation
import Posts
import SmashtagApp

/// `smashtag trend TERM [--mention M] [--bucket hour|day] [--format text|json|csv]`: how often the term's mentions
/// were named over time, by the posts' own times.
struct TrendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "Show how often a search term's hashtags and users were mentioned per hour or per day.",
        discussion: """
            By the posts' own times, in UTC; the counts add up to the popularity counts. Without --mention, every \
            hashtag and user mentioned more than once. csv: mention,kind,start,count, one row per bucket with posts.
            """
    )

    @Argument(help: "A search term from Recents (case-insensitive).")
    var term: String

    @Option(help: "One #hashtag or @user (case-insensitive).")
    var mention: String?

    @Option(help: "hour or day (default: hours while the term's posts span less than two days).")
    var bucket: TrendBucket?

    @Option(help: "text (a small chart), json or csv.")
    var format: TableFormat = .text

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if let mention, !(mention.hasPrefix("#") || mention.hasPrefix("@")) || mention.count < 2 {
            throw ValidationError("--mention takes a #hashtag or an @user, not “\(mention)”.")
        }
    }

    func run() async throws {
        let all = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
            try await CommandFailure.reporting { try await series(database) }
        }
        switch format {
        case .json: print(mention == nil ? PublicJSON.text(all) : PublicJSON.text(all.first))
        case .csv:
            let rows = CSV.row(["mention", "kind", "start", "count"]) + all.flatMap(Self.csvRows).joined()
            print(StandardOutput.data(rows), terminator: "")
        case .text: print(TrendText(all, term: term, style: .standardOutput).text, terminator: "")
        }
    }

    /// The mention's series, or those of every mention the term counted more than once, as its table orders them.
    private func series(_ database: AppDatabase) async throws -> [TrendSeries] {
        guard try await Popularity(database: database).isCounted(term) else {
            throw CommandFailure(Popularity.notInRecents(TerminalText.line(term)))
        }
        let trends = Trends(database: database)
        if let mention { return [try await trends.series(term: term, mention: mention, bucket: bucket)] }
        let table = try await Popularity(database: database).table(for: term)
        var all: [TrendSeries] = []
        for row in table.sections.flatMap(\.rows) {
            all.append(try await trends.series(term: term, mention: row.mention, bucket: bucket))
        }
        return all
    }

    private static func csvRows(_ series: TrendSeries) -> [String] {
        let kind = series.kind.map { $0 == .hashtags ? "hashtag" : "user" } ?? ""
        return series.points.map { CSV.row([series.mention, kind, $0.start.formatted(.iso8601), String($0.count)]) }
    }
}

extension TrendBucket: ExpressibleByArgument {}

/// Trends as a terminal shows them: one mention as a bar per bucket of its last window; several as a line each,
/// with a sparkline of the term's last buckets.
struct TrendText {
    let text: String

    init(_ all: [TrendSeries], term: String, style: TerminalStyle) {
        guard let first = all.first else {
            text = """
                No hashtag or user is mentioned more than once in the posts fetched for “\(TerminalText.line(term))”.\n
                """
            return
        }
        guard let latest = first.latest, all.contains(where: { $0.total > 0 }) else {
            text = "No post fetched for “\(TerminalText.line(first.term))” names \(TerminalText.line(first.mention)).\n"
            return
        }
        text =
            all.count == 1
            ? Self.bars(first, latest: latest, style: style) : Self.lines(all, latest: latest, style: style)
    }

    /// `Nov 23, 14:00  ████████  8`: the last two days of hours or month of days.
    private static func bars(_ series: TrendSeries, latest: Date, style: TerminalStyle) -> String {
        let window = series.window(length: series.bucket.chartLength, endingAt: series.points.last?.start ?? latest)
        let highest = max(window.map(\.count).max() ?? 1, 1)
        let heading =
            """
            \(style.bold(series.mention)) in “\(TerminalText.line(series.term))”, by \(series.bucket.rawValue) (UTC): \
            \(series.total) in all\n
            """
        let rows = window.map { point in
            let label = Self.label(point.start, bucket: series.bucket)
            guard point.count > 0 else { return label + "\n" }
            return label + "  " + String(repeating: "█", count: max(1, point.count * 40 / highest))
                + " \(point.count)\n"
        }
        return heading + rows.joined()
    }

    /// `#swift  ▁▁▂▅█  30`, every mention over the same last 14 buckets.
    private static func lines(_ all: [TrendSeries], latest: Date, style: TerminalStyle) -> String {
        let mentions = all.map { TerminalText.line($0.mention) }
        let width = mentions.map(\.count).max() ?? 0
        let bucket = all[0].bucket
        let heading =
            """
            “\(TerminalText.line(all[0].term))”: the \(Sparklines.length) \(bucket.rawValue)s \
            to \(Self.label(latest, bucket: bucket)) (UTC)\n
            """
        return heading
            + zip(all, mentions).map { series, mention in
                let counts = series.window(length: Sparklines.length, endingAt: latest).map(\.count)
                let padding = String(repeating: " ", count: width - mention.count)
                return mention + padding + "  " + Self.sparkline(counts) + "  \(series.total)\n"
            }.joined()
    }

    private static func sparkline(_ counts: [Int]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        let highest = max(counts.max() ?? 1, 1)
        return String(counts.map { $0 == 0 ? " " : blocks[min(blocks.count - 1, ($0 * blocks.count - 1) / highest)] })
    }

    /// `2026-11-23` or `2026-11-23 13:00`: the CSV's ISO-8601 times, shortened to the bucket.
    private static func label(_ date: Date, bucket: TrendBucket) -> String {
        let iso = date.formatted(.iso8601)  // 2026-11-23T13:00:00Z
        return bucket == .hour ? iso.prefix(10) + " " + iso.dropFirst(11).prefix(5) : String(iso.prefix(10))
    }
}
