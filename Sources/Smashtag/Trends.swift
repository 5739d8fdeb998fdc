#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import Posts

/// How often each hashtag and user of a term was mentioned over time, by the posts' own times (SPEC §8). Read from
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
        let term = try SearchTermKey(term)
        return try await database.writer.read { db in try Self.series(term, mention: mention, bucket: bucket, db) }
    }

    /// The last `buckets` buckets of every mention of `term`, ending with the bucket of its newest counted post.
    public func sparklines(term: String, buckets: Int = Sparklines.length) async throws -> Sparklines {
        let term = try SearchTermKey(term)
        return try await database.writer.read { db in try Self.sparklines(term, buckets: buckets, db) }
    }

    static func series(_ term: SearchTermKey, mention: String, bucket: TrendBucket?, _ db: Database) throws -> TrendSeries {
        let key = mention.split(whereSeparator: \.isWhitespace).joined().lowercased()
        let row = try Row.fetchOne(db, sql: """
            SELECT r.id, r.term, m.id, m.shown, m.kind FROM recent r LEFT JOIN mention m ON m.key = ? WHERE r.key = ?
            """, arguments: [key, term.key])
        let span = try row.map { try TermSpan(termID: $0[0], db) } ?? nil
        let bucket = bucket ?? span?.fittingBucket ?? .hour
        guard let row, let span, let mentionID: Int64 = row[2] else {
            return TrendSeries(term: row?[1] ?? term.shown, mention: mention, kind: nil, bucket: bucket, points: [], latest: nil,
                               isInRecents: row != nil)
        }
        let points = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT hour / ?1, sum(count) FROM mentionTrend WHERE termID = ?2 AND mentionID = ?3 GROUP BY 1 ORDER BY 1
            """), arguments: [bucket.hours, row[0] as Int64, mentionID]).map { TrendPoint(bucket: $0[0], of: bucket, count: $0[1]) }
        // Another term may have counted the mention: under this one it has a kind only if it has posts.
        return TrendSeries(term: row[1], mention: points.isEmpty ? mention : row[3], kind: points.isEmpty ? nil : MentionSection.Kind(code: row[4]),
                           bucket: bucket, points: points, latest: bucket.start(of: span.latest / bucket.hours), isInRecents: true)
    }

    static func sparklines(_ term: SearchTermKey, buckets: Int, _ db: Database) throws -> Sparklines {
        guard let termID = try Recents.id(of: term, in: db),
              let span = try TermSpan(termID: termID, db) else { return .none }
        let bucket = span.fittingBucket
        let last = span.latest / bucket.hours
        let first = last - buckets + 1
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT m.key, t.hour / ?1, sum(t.count) FROM mentionTrend t JOIN mention m ON m.id = t.mentionID
            WHERE t.termID = ?2 AND t.hour >= ?3 GROUP BY t.mentionID, 2
            """), arguments: [bucket.hours, termID, first * bucket.hours])
        var series: [String: [Int]] = [:]
        for row in rows {
            let index = (row[1] as Int) - first
            series[row[0], default: Array(repeating: 0, count: buckets)][index] = row[2]
        }
        return Sparklines(bucket: bucket, end: bucket.start(of: last), length: buckets, series: series)
    }
}

/// The hours of a term's oldest and newest counted posts: two seeks in the trends' time index.
private struct TermSpan {
    let earliest: Int
    let latest: Int

    init?(termID: Int64, _ db: Database) throws {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT (SELECT min(hour) FROM mentionTrend WHERE termID = ?1), (SELECT max(hour) FROM mentionTrend WHERE termID = ?1)
            """), arguments: [termID])
        guard let row, let earliest: Int = row[0], let latest: Int = row[1] else { return nil }
        (self.earliest, self.latest) = (earliest, latest)
    }

    var fittingBucket: TrendBucket { TrendBucket.fitting(hours: latest - earliest) }
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

extension TrendSeries: Encodable {
    private enum CodingKeys: String, CodingKey { case term, mention, bucket, points }

    /// SPEC §8: `{"term", "mention", "bucket", "points": [{"start", "count"}…]}`.
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

/// The hourly counts of what earlier releases counted, from the posts they stored: every counted post is still
/// stored (a post goes only when no term counts it), so the hours add up to the counts.
enum TrendBackfill {
    private struct Key: Hashable {
        let termID: Int64
        let mention: String
        let hour: Int
    }

    static func run(_ db: Database) throws {
        var counts: [Key: Int] = [:]
        // Each post decoded once, with every term that counted it.
        let rows = try Row.fetchCursor(db, sql: """
            SELECT p.json, json_group_array(c.termID) FROM post p JOIN countedPost c ON c.postRef = p.id GROUP BY p.id
            """)
        let decoder = JSONDecoder()
        while let row = try rows.next() {
            // A post this release cannot read any more has no hours; its counts stay as they were.
            guard let post = try? decoder.decode(Post.self, from: Data((row[0] as String).utf8)),
                  let terms = try? decoder.decode([Int64].self, from: Data((row[1] as String).utf8)) else { continue }
            let hour = TrendHour.of(post.created)
            for mention in MentionTally.distinctMentions(of: post) {
                for termID in terms { counts[Key(termID: termID, mention: mention.key, hour: hour), default: 0] += 1 }
            }
        }
        let insert = try db.makeStatement(sql: """
            INSERT INTO mentionTrend(termID, mentionID, hour, count) SELECT ?, id, ?, ? FROM mention WHERE key = ?
            """)
        for (key, count) in counts { try insert.execute(arguments: [key.termID, key.hour, count, key.mention]) }
    }
}

extension MentionSection.Kind {
    /// The kind a stored mention code stands for (0 hashtag, 1 user).
    init?(code: Int) {
        switch code {
        case 0: self = .hashtags
        case 1: self = .users
        default: return nil
        }
    }
}
