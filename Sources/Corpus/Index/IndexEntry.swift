import Posts

/// What a post is found by: the operator terms it answers to and the words of its text.
struct IndexEntry {
    /// `#tag`, `@user`, `from:user` (lower-cased), `filter:media`, `filter:links`, `filter:retweets`,
    /// `filter:replies`, and for a reply `reply:network:id`, the post it answers (its thread's replies are that list).
    let terms: Set<String>
    /// The words, in order (see `WordTokenizer`); links count by where they go, not by their t.co address.
    let words: [String]

    /// `alsoFrom`: another name its author is found by (a Bluesky author's handle beside the DID of the post).
    /// `replies`: false for the terms a corpus written before replies were indexed holds (SQLite's migration v12).
    init(_ post: Post, alsoFrom name: String? = nil, replies: Bool = true) {
        terms = Self.terms(of: post).union(name.map { [Self.from($0)] } ?? [])
            .union(replies ? Self.replyTerms(of: post) : [])
        words = WordTokenizer.words(in: Self.searchableText(of: post))
    }

    static func hashtag(_ tag: String) -> String { "#" + tag.lowercased() }
    static func mention(_ handle: String) -> String { "@" + handle.lowercased() }
    static func from(_ handle: String) -> String { "from:" + handle.lowercased() }
    static func filter(_ filter: SearchFilter) -> String { "filter:" + filter.rawValue }
    /// No post is indexed by it: the corpus keeps replies by the post they answer, not by the conversation
    /// (`CorpusQueryError.check` refuses `conversation:` before a search gets here).
    static func conversation(_ id: String) -> String { "conversation:" + id }
    /// The replies to `parent`; its id as the network wrote it (a Bluesky URI's DID and record key keep their case).
    static func reply(to parent: PostKey) -> String { "reply:" + parent.description }

    private static func replyTerms(of post: Post) -> Set<String> {
        guard let parent = post.inReplyToID else { return [] }
        return [filter(.replies), reply(to: PostKey(network: post.network, id: parent))]
    }

    private static func terms(of post: Post) -> Set<String> {
        var terms: Set<String> = [from((post.repostedBy ?? post.author).handle)]
        for mention in post.mentions {
            switch mention.kind {
            case .hashtag: terms.insert(hashtag(String(mention.keyword.dropFirst())))
            case .user: terms.insert(self.mention(String(mention.keyword.dropFirst())))
            case .url: terms.insert(filter(.links))
            }
        }
        if !post.media.isEmpty { terms.formUnion([filter(.media), filter(.links)]) }
        if post.repostedBy != nil {
            // A retweet's text on Twitter starts "RT @author:", so it mentions the author.
            terms.formUnion([filter(.reposts), mention(post.author.handle)])
        }
        return terms
    }

    private static func searchableText(of post: Post) -> String {
        let links = post.mentions.filter { $0.kind == .url && $0.expandedURL != nil }
        guard !links.isEmpty else { return post.text }
        var scalars = Array(post.text.unicodeScalars)
        for link in links.reversed() where link.range.upperBound <= scalars.count {
            scalars.replaceSubrange(link.range, with: (link.expandedURL ?? "").unicodeScalars)
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
