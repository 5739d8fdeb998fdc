import Posts

/// Which hashtags and users are most mentioned across every post fetched for a search term: mentions
/// counted more than once, by count, ties alphabetical, in two sections.
public struct PopularityTable: Sendable, Hashable {
    public let term: String
    /// Always Hashtags then Users; a face shows only the sections that have rows.
    public let sections: [MentionSection]
    /// The counts are of this window's posts.
    public let window: TimeWindow
    /// What each row's mention is named with most, its top three partners as shown, by mention key.
    let partners: [String: [String]]
    /// Each row's count in the window before, by mention key (none for all time).
    let previous: [String: Int]

    public init(term: String, sections: [MentionSection]) {
        self.init(term: term, sections: sections, window: .all, partners: [:], previous: [:])
    }

    init(
        term: String, sections: [MentionSection], window: TimeWindow, partners: [String: [String]],
        previous: [String: Int]
    ) {
        self.term = term
        self.sections = sections
        self.window = window
        self.partners = partners
        self.previous = previous
    }

    /// The table from the stores' rows, in order: each mention's stored kind code, as first seen, its count and its
    /// partners (and its count in the window before, for a window of a fixed length).
    init(term: String, window: TimeWindow, counted rows: [CountedMention]) {
        self.init(
            term: term,
            sections: MentionSection.Kind.allCases.map { kind in
                MentionSection(
                    kind: kind,
                    rows: rows.filter { MentionSection.Kind(code: $0.kind) == kind }.map {
                        PopularMention(mention: $0.shown, count: $0.count)
                    })
            }, window: window,
            partners: Dictionary(rows.map { ($0.key, $0.partners) }) { first, _ in first },
            previous: window == .all ? [:] : Dictionary(rows.map { ($0.key, $0.previous) }) { first, _ in first })
    }

    /// The rows of one kind.
    public func rows(_ kind: MentionSection.Kind) -> [PopularMention] {
        sections.first { $0.kind == kind }?.rows ?? []
    }

    /// The mentions a row's mention is named with most in the same posts, strongest first (at most three).
    public func partners(of mention: PopularMention) -> [String] {
        partners[mention.mention.lowercased()] ?? []
    }

    /// A row's count in the window before (0 for all time).
    public func previousCount(of mention: PopularMention) -> Int {
        previous[mention.mention.lowercased()] ?? 0
    }

    /// How a row's count compares with the window before; nil for all time.
    public func momentum(of mention: PopularMention) -> Momentum? {
        guard window != .all else { return nil }
        return Momentum(count: mention.count, previous: previousCount(of: mention))
    }
}

/// A mention as the stores read it for a table or a network: its id, stored kind code, key, first spelling, count in
/// the window, count in the window before (0 for all time), and partners (filled in for a table's rows).
struct CountedMention: Sendable {
    let id: Int64
    let kind: Int
    let key: String
    let shown: String
    let count: Int
    var previous = 0
    var partners: [String] = []

    /// A table's rows: counted more than once, most first, ties alphabetical by key.
    static func rows(_ counted: [CountedMention]) -> [CountedMention] {
        counted.filter { $0.count > 1 }.sorted { ($1.count, $0.key) < ($0.count, $1.key) }
    }
}

extension [CountedMention] {
    /// The mentions with their partners as the stores read them, by mention id.
    func withPartners(_ partners: [Int64: [String]]) -> [CountedMention] {
        map { mention in
            var mention = mention
            mention.partners = partners[mention.id] ?? []
            return mention
        }
    }
}

/// The strongest partners of some mentions from the pairs of a window, each pair read once (the lower id first):
/// by weight, three at most. Ties go to the mention the store met first (the lower id), as the stores' weight indexes
/// order them over all time; both stores number a page's new mentions in key order, so they agree.
enum StrongestPartners {
    static let limit = 3

    static func of(
        _ mentions: [CountedMention], pairs: [(mention: Int64, partner: Int64, weight: Int)], names: [Int64: String]
    ) -> [CountedMention] {
        var candidates: [Int64: [(weight: Int, id: Int64)]] = [:]
        let wanted = Set(mentions.map(\.id))
        for pair in pairs {
            for (one, other) in [(pair.mention, pair.partner), (pair.partner, pair.mention)] where wanted.contains(one)
            {
                candidates[one, default: []].append((pair.weight, other))
            }
        }
        return mentions.withPartners(
            candidates.mapValues { candidates in
                candidates.sorted { ($1.weight, $0.id) < ($0.weight, $1.id) }.prefix(limit).compactMap { names[$0.id] }
            })
    }
}

/// One section of a popularity table or of a post's mentions: its kind names its heading.
public struct MentionSection: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case hashtags = "Hashtags"
        case users = "Users"
    }

    public let kind: Kind
    public let rows: [PopularMention]

    public var title: String { kind.rawValue }
}

/// A mention and how many posts named it.
public struct PopularMention: Sendable, Hashable, Codable {
    /// As first seen: `#Swift`, `@NASA`.
    public let mention: String
    public let count: Int

    public init(mention: String, count: Int) {
        self.mention = mention
        self.count = count
    }
}

extension MentionSection.Kind {
    /// The section a kind of mention is counted in; nil for links, which are not counted.
    init?(_ kind: Mention.Kind) {
        switch kind {
        case .hashtag: self = .hashtags
        case .user: self = .users
        case .url: return nil
        }
    }

    /// The section of a mention kind as the stores write it (`Mention.Kind.code`).
    init?(code: Int) {
        guard let kind = Mention.Kind(code: code) else { return nil }
        self.init(kind)
    }
}

extension PopularityTable: Encodable {
    private enum CodingKeys: String, CodingKey { case term, window, hashtags, users }

    /// As scripts read it: `{"term": …, "window": "7d", "hashtags": [{"mention", "count", "partners", and for a
    /// window of a fixed length "previous" and "change"}…], "users": […]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(term, forKey: .term)
        try container.encode(window, forKey: .window)
        try container.encode(rows(.hashtags).map(row), forKey: .hashtags)
        try container.encode(rows(.users).map(row), forKey: .users)
    }

    private func row(_ mention: PopularMention) -> Row {
        Row(
            mention: mention.mention, count: mention.count, partners: partners(of: mention),
            previous: momentum(of: mention).map { _ in previousCount(of: mention) },
            change: momentum(of: mention)?.name)
    }

    private struct Row: Encodable {
        let mention: String
        let count: Int
        let partners: [String]
        let previous: Int?
        let change: String?
    }
}
