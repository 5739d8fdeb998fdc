import Posts
import Twitter

/// What a tweet is found by: the operator terms it answers to and the words of its text.
struct IndexEntry {
    /// `#tag`, `@user`, `from:user` (lower-cased), `filter:media`, `filter:links`, `filter:retweets`.
    let terms: Set<String>
    /// Space-separated words (see `WordTokenizer`); links count by where they go, not by their t.co address.
    let words: String

    /// `alsoFrom`: another name its author is found by (a Bluesky author's handle beside the DID of the post).
    init(_ tweet: Post, alsoFrom name: String? = nil) {
        terms = Self.terms(of: tweet).union(name.map { [Self.from($0)] } ?? [])
        words = WordTokenizer.words(in: Self.searchableText(of: tweet)).joined(separator: " ")
    }

    static func hashtag(_ tag: String) -> String { "#" + tag.lowercased() }
    static func mention(_ screenName: String) -> String { "@" + screenName.lowercased() }
    static func from(_ screenName: String) -> String { "from:" + screenName.lowercased() }
    static func filter(_ filter: SearchFilter) -> String { "filter:" + filter.rawValue }

    private static func terms(of tweet: Post) -> Set<String> {
        var terms: Set<String> = [from((tweet.repostedBy ?? tweet.user).screenName)]
        for mention in tweet.mentions {
            switch mention.kind {
            case .hashtag: terms.insert(hashtag(String(mention.keyword.dropFirst())))
            case .user: terms.insert(self.mention(String(mention.keyword.dropFirst())))
            case .url: terms.insert(filter(.links))
            }
        }
        if !tweet.media.isEmpty { terms.formUnion([filter(.media), filter(.links)]) }
        if tweet.repostedBy != nil {
            // A retweet's text on Twitter starts "RT @author:", so it mentions the author.
            terms.formUnion([filter(.retweets), mention(tweet.user.screenName)])
        }
        return terms
    }

    private static func searchableText(of tweet: Post) -> String {
        let links = tweet.mentions.filter { $0.kind == .url && $0.expandedURL != nil }
        guard !links.isEmpty else { return tweet.text }
        var scalars = Array(tweet.text.unicodeScalars)
        for link in links.reversed() where link.range.upperBound <= scalars.count {
            scalars.replaceSubrange(link.range, with: (link.expandedURL ?? "").unicodeScalars)
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
