/// A search, parsed: the subset of Twitter's search syntax Smashtag understands, with Twitter's meaning.
///
/// As in the X API v2, terms side by side must all match and bind tighter than `OR`: `a b OR c` is
/// `(a b) OR c`. Parse with `SearchQuery(parsing:)`.
public indirect enum SearchQuery: Sendable, Hashable {
    case term(SearchTerm)
    /// Every one of these.
    case all([SearchQuery])
    /// At least one of these.
    case any([SearchQuery])
    /// Not this; only ever beside a term that is not excluded (`swift -ios`), as Twitter requires.
    case excluding(SearchQuery)
}

/// One thing to look for.
public enum SearchTerm: Sendable, Hashable {
    /// A word, matched case-insensitively as a whole word (also inside hashtags and links, as Twitter does).
    case word(String)
    /// `"exact phrase"`: these words in this order.
    case phrase(String)
    /// `#tag`, without the `#`: a hashtag entity, case-insensitively.
    case hashtag(String)
    /// `@user`, without the `@`: posts mentioning the user.
    case mention(String)
    /// `from:user`: posts by the user, or reposted by them.
    case from(String)
    case filter(SearchFilter)
    /// `conversation:ID` (X's `conversation_id:`): the posts of the conversation that post ID began.
    case conversation(String)
}

extension SearchQuery {
    /// Whether any term of the query, required or excluded, is one that `matches` picks out.
    public func contains(where matches: (SearchTerm) -> Bool) -> Bool {
        switch self {
        case .term(let term): matches(term)
        case .all(let parts), .any(let parts): parts.contains { $0.contains(where: matches) }
        case .excluding(let part): part.contains(where: matches)
        }
    }

    /// Whether the query asks for a conversation (`conversation:ID`), which only some sources can answer.
    public var namesConversation: Bool {
        contains { if case .conversation = $0 { true } else { false } }
    }
}

/// `filter:…` (and its v2 spellings `has:media`, `has:links`, `is:retweet`, `is:reply`).
public enum SearchFilter: String, Sendable, Hashable, CaseIterable {
    /// Posts with images or videos.
    case media
    /// Posts with links (a post's images count: they are links too).
    case links
    /// Reposts (retweets, boosts), spelled as X's operator is: `filter:retweets` (also the corpus's index key).
    case reposts = "retweets"
    /// Replies to another post (`filter:replies`, `is:reply`).
    case replies
}

/// Why a query could not be read: one sentence for the person who typed it.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    package init(_ description: String) {
        self.description = description
    }

    /// Nothing but spaces.
    public static let empty = QueryError("Type something to search for.")

    /// Over `SearchTermKey.maximumLength` characters.
    package static func tooLong(_ length: Int) -> QueryError {
        QueryError(
            """
            A search term has at most \(grouped(SearchTermKey.maximumLength)) characters; this one has \
            \(grouped(length)).
            """)
    }

    /// A control character at `position` (counting characters from 1).
    static func control(_ scalar: Unicode.Scalar, at position: Int) -> QueryError {
        let code = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        return QueryError("A search term cannot hold control characters: U+\(padded) at character \(position).")
    }
}
