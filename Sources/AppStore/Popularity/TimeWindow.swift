#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How far back popularity, networks and their exports look, by the posts' own times: the last 24 hours, 7 days or
/// 30 days up to now, or everything counted. A window of a fixed length is compared with the one before it.
public enum TimeWindow: String, Sendable, Hashable, CaseIterable, Codable {
    case day = "24h"
    case week = "7d"
    case month = "30d"
    case all

    /// Its length; nil for all time.
    public var hours: Int? {
        switch self {
        case .day: 24
        case .week: 168
        case .month: 720
        case .all: nil
        }
    }

    /// As a page's choice reads: "24 hours", "All time".
    public var label: String {
        switch self {
        case .day: "24 hours"
        case .week: "7 days"
        case .month: "30 days"
        case .all: "All time"
        }
    }

    /// As a sentence reads: "the last 7 days", "all time".
    public var span: String { self == .all ? "all time" : "the last " + label }

    /// The hours it covers at `now`; nil for all time.
    func hours(at now: Date) -> WindowHours? {
        hours.map { WindowHours(length: $0, now: TrendHour.of(now)) }
    }

    /// The earliest post time it takes in at `now`, as a post's `created` is kept (milliseconds since 1970): its
    /// first hour, as the counts have it, so what a window reads of posts is what its table counted.
    func earliestCreated(at now: Date) -> Int64 {
        hours(at: now).map { Int64($0.first) * 3_600_000 } ?? Int64.min
    }
}

extension TimeWindow: CustomStringConvertible {
    public var description: String { rawValue }
}

/// A window as the stores read it, in hours since 1970: it starts `length` hours before the current hour (counts are
/// kept by the hour, so "24 hours" is the 24 before this one and the part of this one gone by) and runs on past now,
/// taking in posts dated a little in the future by a skewed clock; the window before it starts at `previousFirst`.
struct WindowHours: Sendable, Hashable {
    let first: Int
    let previousFirst: Int

    init(length: Int, now: Int) {
        first = now - length
        previousFirst = first - length
    }
}

/// How a mention's count in a window compares with the window before it.
public enum Momentum: Sendable, Hashable {
    /// Not named at all in the window before.
    case new
    case rising(by: Int)
    case falling(by: Int)
    case steady

    public init(count: Int, previous: Int) {
        if previous == 0 {
            self = .new
        } else if count > previous {
            self = .rising(by: count - previous)
        } else if count < previous {
            self = .falling(by: previous - count)
        } else {
            self = .steady
        }
    }

    /// "new", "rising", "falling" or "steady", as the JSON and CSV name it.
    public var name: String {
        switch self {
        case .new: "new"
        case .rising: "rising"
        case .falling: "falling"
        case .steady: "steady"
        }
    }
}
