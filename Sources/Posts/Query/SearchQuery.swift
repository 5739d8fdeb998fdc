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
}

/// `filter:…` (and its v2 spellings `has:media`, `has:links`, `is:retweet`).
public enum SearchFilter: String, Sendable, Hashable, CaseIterable {
    /// Posts with images or videos.
    case media
    /// Posts with links (a post's images count: they are links too).
    case links
    /// Reposts (retweets, boosts), spelled as X's operator is: `filter:retweets` (also the corpus's index key).
    case reposts = "retweets"
}

/// Why a query could not be read: one sentence for the person who typed it.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    package init(_ description: String) {
        self.description = description
    }

    /// Nothing but spaces.
    public static let empty = QueryError("Type something to search for.")
}
