import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How often each hashtag and user of a term was mentioned over time, by the posts' own times. Read from
/// the hourly counts `PopularityCounter` keeps beside the totals, so a series is one indexed range whatever the
/// number of posts, and its counts add up to the mention's popularity count.
public struct Trends: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The series of one mention (`#tag` or `@user`, any case) under `term`, in `bucket`s or, when nil, the bucket
    /// that fits the term's time span; empty when the term is not in Recents or never counted the mention.
    public func series(term: String, mention: String, bucket: TrendBucket? = nil) async throws -> TrendSeries {
        try await database.store.series(SearchTermKey(term), mention: mention, bucket: bucket)
    }

    /// The last `buckets` buckets of every mention of `term`, ending with the bucket of its newest counted post.
    public func sparklines(term: String, buckets: Int = Sparklines.length) async throws -> Sparklines {
        try await database.store.sparklines(SearchTermKey(term), buckets: buckets)
    }
}

/// The hours of a term's oldest and newest counted posts.
struct TermSpan {
    let earliest: Int
    let latest: Int

    var fittingBucket: TrendBucket { TrendBucket.fitting(hours: latest - earliest) }
}

/// The buckets a term's sparklines cover: the last `length` of the bucket that fits its span, ending with the bucket
/// of its newest counted post.
struct SparklineWindow {
    let bucket: TrendBucket
    let first: Int
    let last: Int

    init(span: TermSpan, buckets: Int) {
        bucket = span.fittingBucket
        last = span.latest / bucket.hours
        first = last - buckets + 1
    }

    /// The first hour the stores read counts from.
    var firstHour: Int { first * bucket.hours }

    /// The sparklines from the stores' rows: a mention's key, a bucket number and the count in it.
    func sparklines(_ rows: [(key: String, bucket: Int, count: Int)]) -> Sparklines {
        let length = last - first + 1
        var series: [String: [Int]] = [:]
        for row in rows {
            series[row.key, default: Array(repeating: 0, count: length)][row.bucket - first] = row.count
        }
        return Sparklines(bucket: bucket, end: bucket.start(of: last), length: length, series: series)
    }
}

/// The width of a trend's steps: an hour or a day (UTC).
public enum TrendBucket: String, Sendable, Hashable, CaseIterable, Codable {
    case hour
    case day

    var hours: Int { self == .hour ? 1 : 24 }

    /// How long a bucket lasts.
    public var duration: TimeInterval { Double(hours * 3600) }

    /// The buckets a chart shows at once: two days of hours, a month of days.
    public var chartLength: Int { self == .hour ? 48 : 30 }

    /// Hours while the posts span less than two days, then days: a few dozen steps either way.
    static func fitting(hours span: Int) -> TrendBucket { span < 48 ? .hour : .day }

    /// When bucket number `index` (counted from 1970) starts.
    func start(of index: Int) -> Date {
        Date(timeIntervalSince1970: Double(index * hours) * 3600)
    }

    /// The number of the bucket holding `date`.
    public func index(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / Double(hours * 3600)).rounded(.down))
    }
}

/// One step of a trend: when it starts and how many posts in it named the mention.
public struct TrendPoint: Sendable, Hashable, Codable {
    public let start: Date
    public let count: Int

    public init(start: Date, count: Int) {
        (self.start, self.count) = (start, count)
    }

    init(bucket index: Int, of bucket: TrendBucket, count: Int) {
        self.init(start: bucket.start(of: index), count: count)
    }
}

/// A mention's trend under a term.
public struct TrendSeries: Sendable, Hashable {
    /// The term and the mention as shown (the mention as first seen; as asked when it was never counted).
    public let term: String
    public let mention: String
    /// Nil when the term never counted the mention.
    public let kind: MentionSection.Kind?
    public let bucket: TrendBucket
    /// Only the buckets with posts, oldest first: a bucket left out had none.
    public let points: [TrendPoint]
    /// The start of the bucket of the term's newest counted post (of any mention): where its sparklines end, and
    /// the last a chart can show (a mention's chart ends at its own newest bucket unless asked otherwise).
    public let latest: Date?
    /// False when the term is not in Recents: then nothing is counted for it.
    public let isInRecents: Bool

    /// The mention's popularity count.
    public var total: Int { points.reduce(0) { $0 + $1.count } }

    /// Every bucket of the `length` ending with the one starting at `end`, empty ones as 0, oldest first.
    public func window(length: Int, endingAt end: Date) -> [TrendPoint] {
        let last = bucket.index(of: end)
        let counts = Dictionary(uniqueKeysWithValues: points.map { (bucket.index(of: $0.start), $0.count) })
        return ((last - length + 1)...last).map { TrendPoint(bucket: $0, of: bucket, count: counts[$0] ?? 0) }
    }
}

extension TrendSeries {
    /// A mention as the stores key it: spaces dropped, lower-cased.
    static func key(of mention: String) -> String {
        mention.split(whereSeparator: \.isWhitespace).joined().lowercased()
    }

    /// No points: the term is not in Recents, has counted nothing, or never counted the mention.
    static func empty(term: String, mention: String, bucket: TrendBucket, isInRecents: Bool) -> TrendSeries {
        TrendSeries(
            term: term, mention: mention, kind: nil, bucket: bucket, points: [], latest: nil, isInRecents: isInRecents)
    }

    /// A series as the stores read it: `counted` is the mention as first seen and its stored kind code. Another term
    /// may have counted the mention: under this one it has a kind only if it has points.
    init(
        term: String, mention: String, counted: (shown: String, kind: Int), bucket: TrendBucket, points: [TrendPoint],
        span: TermSpan
    ) {
        self.init(
            term: term, mention: points.isEmpty ? mention : counted.shown,
            kind: points.isEmpty ? nil : MentionSection.Kind(code: counted.kind), bucket: bucket, points: points,
            latest: bucket.start(of: span.latest / bucket.hours), isInRecents: true)
    }
}

extension TrendSeries: Encodable {
    private enum CodingKeys: String, CodingKey { case term, mention, bucket, points }

    /// The trend as the JSON twin and `trend --format json` give it: `{"term", "mention", "bucket", "points":
    /// [{"start", "count"}…]}`, the points' counts adding up to the mention's count.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(term, forKey: .term)
        try container.encode(mention, forKey: .mention)
        try container.encode(bucket, forKey: .bucket)
        try container.encode(points, forKey: .points)
    }
}

/// The last few buckets of every mention of a term, over the same time: the Popularity page's sparklines.
public struct Sparklines: Sendable, Hashable {
    public static let length = 14
    public static let none = Sparklines(bucket: .hour, end: nil, length: length, series: [:])

    public let bucket: TrendBucket
    /// The start of the last bucket; nil when the term has counted nothing.
    public let end: Date?
    let length: Int
    /// By mention key (lower-cased, with its `#` or `@`).
    let series: [String: [Int]]

    /// A mention's counts, oldest first (zeros for one with none in these buckets).
    public func counts(for mention: String) -> [Int] {
        series[mention.lowercased()] ?? Array(repeating: 0, count: length)
    }
}
