import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a term is collected: how often, from which sources, and how many older pages to walk once.
public struct TrackingPlan: Sendable, Hashable {
    /// The shortest interval: every few seconds would spend a network's limit on one term.
    public static let shortestInterval = 10
    /// Five minutes, unless asked otherwise.
    public static let defaultInterval = 300
    /// Tracked terms are never pushed out of Recents, so they are bounded on their own.
    public static let most = 100

    /// Seconds between fetches, at least `shortestInterval`.
    public let every: Int
    /// The sources' names; nil for every source the server offers.
    public let sources: [String]?
    /// Older pages still to walk, once each, when the networks' limits leave room.
    public let backfill: Int
    /// How many days the term's posts are kept (`track --keep 90d`): older ones are reduced to what keeps them
    /// counted unless another term still keeps them (`Retention`); nil: as long as the whole data's keeping time.
    public let keepDays: Int?
    /// With `keepDays`: the older posts leave the term's counts too (`track --keep 90d --forget-counts`).
    public let forgetsCounts: Bool

    public init(
        every: Int = defaultInterval, sources: [String]? = nil, backfill: Int = 0, keepDays: Int? = nil,
        forgetsCounts: Bool = false
    ) {
        self.every = max(every, Self.shortestInterval)
        self.sources = sources
        self.backfill = max(backfill, 0)
        self.keepDays = keepDays.map { max($0, 1) }
        self.forgetsCounts = forgetsCounts && keepDays != nil
    }
}

/// A tracked term as the store holds it: its plan, its schedule, how many posts it has, and where each source stands.
public struct TrackedTerm: Sendable, Hashable {
    /// As shown in Recents.
    public let term: String
    /// The key terms are the same by (`SearchTermKey`).
    public let key: String
    public let plan: TrackingPlan
    public let since: Date
    /// When the next fetch is due.
    public let due: Date
    /// When the last fetch ended; nil before the first.
    public let fetched: Date?
    /// The posts counted under the term, by searches and by the tracker.
    public let posts: Int
    /// Each source the tracker has fetched from, by name.
    public let sources: [TrackedSource]
    /// Who tracked it: besides an admin, the one who may untrack it.
    public let trackedBy: Holder
    /// Their name; nil for the owner (no people) and for a person since removed.
    public let trackedByName: String?

    public init(
        term: String, key: String, plan: TrackingPlan, since: Date, due: Date, fetched: Date?, posts: Int,
        sources: [TrackedSource], trackedBy: Holder = .owner, trackedByName: String? = nil
    ) {
        (self.term, self.key, self.plan, self.since, self.due) = (term, key, plan, since, due)
        (self.fetched, self.posts, self.sources) = (fetched, posts, sources.sorted { $0.name < $1.name })
        (self.trackedBy, self.trackedByName) = (trackedBy, trackedByName)
    }

    /// The source's state; a fresh one for a source not fetched yet.
    public func source(_ name: String) -> TrackedSource {
        sources.first { $0.name == name } ?? TrackedSource(name: name)
    }
}

/// Where a tracked term stands in one source: the position after the newest post collected, the position before the
/// oldest (for the backfill), and its last failure.
public struct TrackedSource: Sendable, Hashable {
    public let name: String
    /// Where the next newer walk starts; nil before the first fetch (which takes the newest page).
    public var newer: SearchRequest.Position?
    /// Where the backfill goes on; nil before the first page, or when the source has nothing older.
    public var older: SearchRequest.Position?
    /// The last failure, in one sentence for a person; nil once the source answers again.
    public var error: String?
    /// No request before this time (a rate limit's reset, or a pause after failures).
    public var retryAt: Date?
    /// Failures in a row, for the growing pause.
    public var failures: Int
    /// What a walk could not collect (more new posts than it follows), said on the page; nil when nothing is missing.
    public var gap: String?

    public init(
        name: String, newer: SearchRequest.Position? = nil, older: SearchRequest.Position? = nil,
        error: String? = nil, retryAt: Date? = nil, failures: Int = 0, gap: String? = nil
    ) {
        (self.name, self.newer, self.older, self.error) = (name, newer, older, error)
        (self.retryAt, self.failures, self.gap) = (retryAt, failures, gap)
    }
}

/// Why a term cannot be tracked: past the most there can be.
public enum TrackingError: ExplainedError, Equatable {
    case tooMany

    public var description: String {
        "\(TrackingPlan.most) terms are tracked already, the most there can be: untrack one first."
    }
}

/// A source's positions as the stores keep them: `SearchRequest.Position` in its `Codable` form.
enum PositionText {
    static func encode(_ position: SearchRequest.Position?) -> String? {
        position.map(PublicJSON.text)
    }

    static func decode(_ text: String?) -> SearchRequest.Position? {
        text.flatMap { try? JSONDecoder().decode(SearchRequest.Position.self, from: Data($0.utf8)) }
    }
}

extension TrackedTerm: Encodable {
    private enum CodingKeys: String, CodingKey {
        case term, every, sources, backfill, keepDays, forgetsCounts, since, lastFetched, nextFetch, posts
        case sourceStates, trackedBy
    }

    /// `{"term", "every" (seconds), "sources" (names, or null for every one offered), "backfill", "keepDays" (or
    /// null), "forgetsCounts", "since",
    /// "lastFetched", "nextFetch", "posts", "sourceStates": [{"source", "error", "retryAt", "gap"}], "trackedBy" (a
    /// person's name, or null)}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(term, forKey: .term)
        try container.encode(plan.every, forKey: .every)
        try container.encode(plan.sources, forKey: .sources)
        try container.encode(plan.backfill, forKey: .backfill)
        try container.encode(plan.keepDays, forKey: .keepDays)
        try container.encode(plan.forgetsCounts, forKey: .forgetsCounts)
        try container.encode(since, forKey: .since)
        try container.encode(fetched, forKey: .lastFetched)
        try container.encode(due, forKey: .nextFetch)
        try container.encode(posts, forKey: .posts)
        try container.encode(sources, forKey: .sourceStates)
        try container.encode(trackedByName, forKey: .trackedBy)
    }
}

extension TrackedSource: Encodable {
    private enum CodingKeys: String, CodingKey {
        case source, error, retryAt, gap
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .source)
        try container.encode(error, forKey: .error)
        try container.encode(retryAt, forKey: .retryAt)
        try container.encode(gap, forKey: .gap)
    }
}
