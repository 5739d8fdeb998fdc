/// A hashtag, user mention or link in a post's text.
public struct Mention: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case hashtag
        case user
        case url
    }

    public let kind: Kind
    /// Exactly as it appears in the text (`#Swift`, `@NASA`, `https://t.co/…`).
    public let keyword: String
    /// Where it is, in Unicode scalars (code points) of the post's unescaped text.
    public let range: Range<Int>
    /// For links: where the link really goes (the text holds a t.co address).
    public let expandedURL: String?
    /// For links: what people see in place of the keyword (X's `display_url`, such as `example.com/a…`, in place of
    /// the `t.co` wrapper the text holds); nil when the keyword is what they see.
    public let display: String?

    public init(kind: Kind, keyword: String, range: Range<Int>, expandedURL: String? = nil, display: String? = nil) {
        self.kind = kind
        self.keyword = keyword
        self.range = range
        self.expandedURL = expandedURL
        self.display = display
    }

    /// What people see where the mention is.
    public var shown: String { display ?? keyword }

    private enum CodingKeys: String, CodingKey {
        case kind, keyword, start, end, expandedURL, display
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(Int.self, forKey: .start)
        let end = try container.decode(Int.self, forKey: .end)
        guard start <= end else {
            throw DecodingError.dataCorruptedError(forKey: .end, in: container, debugDescription: "end before start")
        }
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            keyword: try container.decode(String.self, forKey: .keyword),
            range: start..<end,
            expandedURL: try container.decodeIfPresent(String.self, forKey: .expandedURL),
            display: try container.decodeIfPresent(String.self, forKey: .display)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(keyword, forKey: .keyword)
        try container.encode(range.lowerBound, forKey: .start)
        try container.encode(range.upperBound, forKey: .end)
        try container.encodeIfPresent(expandedURL, forKey: .expandedURL)
        try container.encodeIfPresent(display, forKey: .display)
    }
}
