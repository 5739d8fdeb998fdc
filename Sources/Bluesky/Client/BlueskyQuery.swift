import Posts

/// What a query becomes on Bluesky: one `app.bsky.feed.searchPosts` request per `OR` alternative, merged;
/// `#tag` → `tag`, `from:h` → `author`, `@h` → `mentions`, words → `q`. The query text (`q` is required) is the
/// alternative in Bluesky's own search syntax, so the service applies every part of it.
struct BlueskySearch: Equatable {
    static let mostAlternatives = 4

    private(set) var words: [String] = []
    private(set) var tags: [String] = []
    private(set) var author: String?
    private(set) var mentions: String?

    /// The requests for `query`, or why Bluesky cannot answer it: one phrase.
    static func searches(for query: SearchQuery) throws(BlueskyQueryError) -> [BlueskySearch] {
        let alternatives: [SearchQuery] = if case .any(let parts) = query { parts } else { [query] }
        var searches: [BlueskySearch] = []
        for alternative in alternatives {
            searches += try expanded(alternative)
            guard searches.count <= mostAlternatives else { throw tooMany }
        }
        return searches
    }

    /// Counted as the alternatives multiply, so a query of many `OR`s is refused before it costs anything.
    private static let tooMany = BlueskyQueryError("more than \(mostAlternatives) alternatives joined by OR")

    /// An alternative's ANDed parts; an `OR` among them (`@alice OR from:alice`, what following a user searches)
    /// multiplies the requests.
    private static func expanded(_ alternative: SearchQuery) throws(BlueskyQueryError) -> [BlueskySearch] {
        let parts: [SearchQuery] = if case .all(let parts) = alternative { parts } else { [alternative] }
        var searches = [BlueskySearch()]
        for part in parts {
            guard case .any(let choices) = part else {
                for index in searches.indices { try searches[index].add(part) }
                continue
            }
            guard searches.count * choices.count <= mostAlternatives else { throw tooMany }
            var grown: [BlueskySearch] = []
            for search in searches {
                for choice in choices {
                    var copy = search
                    try copy.add(choice)
                    grown.append(copy)
                }
            }
            searches = grown
        }
        return searches
    }

    private mutating func add(_ part: SearchQuery) throws(BlueskyQueryError) {
        switch part {
        case .term(.word(let word)): words.append(word)
        case .term(.phrase(let phrase)): words.append("\"\(phrase)\"")
        case .term(.hashtag(let tag)): tags.append(tag)
        case .term(.from(let user)):
            guard author == nil else { throw BlueskyQueryError("it searches one author at a time") }
            author = try Self.handle(user, as: "from:")
        case .term(.mention(let user)):
            guard mentions == nil else { throw BlueskyQueryError("it searches one mentioned user at a time") }
            mentions = try Self.handle(user, as: "@")
        case .excluding(.term(.filter(.reposts))): break  // search never answers with reposts
        case .excluding(.term(.word(let word))): words.append("-" + word)
        case .excluding(.term(.hashtag(let tag))): words.append("-#" + tag)
        case .term(.conversation), .excluding(.term(.conversation)):
            throw BlueskyQueryError("it has no conversation: search (a post's thread shows its conversation)")
        case .term(.filter(let filter)), .excluding(.term(.filter(let filter))):
            throw BlueskyQueryError("it has no filter:\(filter.rawValue)")
        default: throw BlueskyQueryError("it cannot combine those parts that way")
        }
    }

    private static func handle(_ user: String, as prefix: String) throws(BlueskyQueryError) -> String {
        guard !user.contains("@") else {
            throw BlueskyQueryError("\(prefix)\(user) is a Mastodon address, not a Bluesky handle")
        }
        guard user.contains(".") else {
            throw BlueskyQueryError(
                "\(prefix)\(user) is not a Bluesky handle (they are domain names, like \(user).bsky.social)")
        }
        return user
    }

    /// The request's parameters, newest first, `limit` at a time.
    func parameters(limit: Int) -> [(String, String)] {
        var text = words + tags.map { "#" + $0 }
        if let author { text.append("from:" + author) }
        if let mentions { text.append("mentions:" + mentions) }
        var parameters = [("q", text.joined(separator: " ")), ("sort", "latest"), ("limit", String(limit))]
        parameters += tags.map { ("tag", $0) }
        if let author { parameters.append(("author", author)) }
        if let mentions { parameters.append(("mentions", mentions)) }
        return parameters
    }
}

/// Why Bluesky cannot answer a query.
struct BlueskyQueryError: Error {
    let phrase: String
    init(_ phrase: String) { self.phrase = phrase }
}
