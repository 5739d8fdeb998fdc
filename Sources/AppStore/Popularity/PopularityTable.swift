import Posts

/// Which hashtags and users are most mentioned across every post fetched for a search term: mentions
/// counted more than once, by count, ties alphabetical, in two sections.
public struct PopularityTable: Sendable, Hashable {
    public let term: String
    /// Always Hashtags then Users; a face shows only the sections that have rows.
    public let sections: [MentionSection]

    public init(term: String, sections: [MentionSection]) {
        self.term = term
        self.sections = sections
    }

    /// The table from the stores' rows, in order: each mention's stored kind code, as first seen, and its count.
    init(term: String, counted rows: [(kind: Int, mention: String, count: Int)]) {
        self.init(
            term: term,
            sections: MentionSection.Kind.allCases.map { kind in
                MentionSection(
                    kind: kind,
                    rows: rows.filter { MentionSection.Kind(code: $0.kind) == kind }.map {
                        PopularMention(mention: $0.mention, count: $0.count)
                    })
            })
    }

    /// The rows of one kind.
    public func rows(_ kind: MentionSection.Kind) -> [PopularMention] {
        sections.first { $0.kind == kind }?.rows ?? []
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
    private enum CodingKeys: String, CodingKey { case term, hashtags, users }

    /// As scripts read it: `{"term": …, "hashtags": [{"mention", "count"}…], "users": […]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(term, forKey: .term)
        try container.encode(rows(.hashtags), forKey: .hashtags)
        try container.encode(rows(.users), forKey: .users)
    }
}
