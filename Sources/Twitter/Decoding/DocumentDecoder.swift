import Posts
import WireJSON

/// Recognises which of X's formats an item is from its content and decodes it.
package struct DocumentDecoder: ItemDecoder {
    /// An archive's `tweets.js` names no author: the account comes from its `account.js`.
    let archiveAccount: Author?
    /// The formats an unknown object is told it is none of.
    let expected: String

    /// Members no decoder of X's formats reads (v2 context and entity annotations, metrics, matching rules, twarc's
    /// collection notes, a tweet's and a user's bookkeeping): the reader checks their syntax but does not build them.
    /// Other networks' decoders read none of them either.
    package static let bulkyUnreadKeys = [
        "context_annotations", "annotations", "public_metrics", "matching_rules", "__twarc", "conversation_id",
        "reply_settings", "edit_history_tweet_ids", "edit_controls", "possibly_sensitive", "pinned_tweet_id",
        "location", "verified", "verified_type", "protected", "withheld", "unwound_url",
    ]
    /// The same and profile descriptions, which X's files alone may leave unbuilt: other networks' media and link
    /// previews have a `description` of their own.
    static let unreadKeys = bulkyUnreadKeys + ["description"]

    package static let formats = """
        a tweet, a v1.1 search page, an X API v2 page, a twarc2 line, an Activity Streams activity or a Twitter \
        archive
        """

    /// The members a line read straight from its bytes may have at its root: an X API v2 page's or twarc2 line's,
    /// or a `twarc2 flatten` line's (a v2 tweet's fields and what twarc merges into them). None of them is a name
    /// by which this decoder or another network's tells its formats apart, so a line of only these members is one
    /// that `decode(_:)` reads as a v2 page or tweet.
    static let v2RootKeys = JSONKeySet(
        [
            "data", "includes", "errors", "meta",
            "id", "text", "created_at", "author_id", "author", "entities", "attachments", "referenced_tweets", "lang",
            "note_tweet", "source", "geo", "in_reply_to_user_id", "in_reply_to_user", "display_text_range", "card_uri",
            "community_id", "media_metadata", "scopes", "non_public_metrics", "organic_metrics", "promoted_metrics",
        ] + bulkyUnreadKeys)
    private static let unreadKeySet = JSONKeySet(unreadKeys)

    package init(archiveAccount: Author?, expected: String = Self.formats) {
        self.archiveAccount = archiveAccount
        self.expected = expected
    }

    package func decode(_ value: JSONValue) -> [ItemOutcome] {
        switch value {
        case .array(let elements): elements.flatMap { decode($0) }
        case .object(let members): decode(object: value, keys: members)
        default: [.problem("expected a JSON object or array, found \(value.kindName)")]
        }
    }

    private func decode(object: JSONValue, keys: JSONObject) -> [ItemOutcome] {
        if keys["_source"] != nil, let body = keys["body"], body.object != nil || body.array != nil {
            return decode(body)
        }
        if let statuses = (keys["statuses"] ?? keys["results"])?.array {
            return statuses.map { status in one { try V1Format.tweet(status) } }
        }
        if keys["data"] != nil { return V2Page(object).outcomes }
        if let interactions = keys["interactions"]?.array { return interactions.flatMap(decode(interaction:)) }
        if let entry = keys["tweet"], entry.object != nil {
            return [one { try V1Format.tweet(entry, author: archiveAccount ?? .unknown) }]
        }
        if keys["verb"] != nil, keys["actor"] != nil { return [one { try ActivityStreamsFormat.tweet(object) }] }
        if keys["text"] != nil || keys["full_text"] != nil { return [one { try tweet(object, keys: keys) }] }
        return [NonTweetPayload(keys: keys).outcome(expected: expected)]
    }

    /// X API v2 pages and `twarc2 flatten` lines read from a tape: the same outcomes as `decode(_:)` without a
    /// tree. Anything else is declined (and read as a tree).
    package func decode(line: UnsafeBufferPointer<UInt8>) -> [ItemOutcome]? {
        JSONTape.read(line, ignoring: Self.unreadKeySet, rootKeys: Self.v2RootKeys) { root in
            // As `decode(object:keys:)` tells them apart: `data` first, then a tweet with an author.
            if root["data"] != nil { return V2Page(root).outcomes }
            guard root["text"] != nil, root["author_id"] != nil || root["author"] != nil else { return nil }
            return [one { try V2Format.tweet(root, includes: V2Includes(flattened: root)) }]
        }
    }

    /// A vcrpy cassette's recorded response: the body is JSON inside a string.
    private func decode(interaction: JSONValue) -> [ItemOutcome] {
        guard let body = interaction["response"]?["body"]?["string"]?.string else { return [] }
        var reader = JSONItemReader(bytes: Array(body.utf8))
        var outcomes: [ItemOutcome] = []
        while let result = reader.next() {
            guard case .item(let item) = result else {
                outcomes.append(.problem("a recorded response body that is not JSON (compressed?)"))
                break
            }
            outcomes += decode(item.value)
        }
        return outcomes
    }

    private func tweet(_ object: JSONValue, keys: JSONObject) throws -> Post {
        if keys["author_id"] != nil || keys["author"] != nil {
            return try V2Format.tweet(object, includes: V2Includes(flattened: object))
        }
        return try V1Format.tweet(object, author: archiveAccount)
    }

    private func one(_ decode: () throws -> Post) -> ItemOutcome {
        do { return .post(try decode()) } catch { return .problem(FormatError.message(of: error)) }
    }
}

/// An X API v2 response (a twarc2 line is one with `__twarc`): tweets in `data`, what they refer to in `includes`.
private struct V2Page<Node: JSONNode> {
    private(set) var outcomes: [ItemOutcome] = []

    init(_ page: Node) {
        let includes = V2Includes(page: page["includes"])
        let data = page["data"]?.array.map { Array($0) } ?? page["data"].map { [$0] } ?? []
        let tweets = data.filter { $0["text"] != nil }
        for tweet in tweets {
            do { outcomes.append(.post(try V2Format.tweet(tweet, includes: includes))) } catch {
                outcomes.append(.problem(FormatError.message(of: error)))
            }
        }
        if tweets.count < data.count {
            outcomes.append(.skipped("X API v2 data that are not tweets (users, lists or counts)"))
        }
        if let errors = page["errors"]?.array, let first = errors.first {
            outcomes.append(
                .skipped("the response reports \(errors.count) partial error(s), e.g. \(APIErrorText(first).text)"))
        }
    }
}

/// Twitter payloads that are not tweets, recognised so they are skipped with a note rather than called malformed.
private struct NonTweetPayload {
    let keys: JSONObject

    private static let known: [String: String] = [
        "users": "users", "ids": "user ids", "resources": "rate-limit status", "search_metadata": "search metadata",
        "refresh_url": "search metadata", "delete": "a stream delete notice", "limit": "a stream limit notice",
        "friends": "a stream friends list", "friends_str": "a stream friends list",
        "scrub_geo": "a stream scrub_geo notice",
        "status_withheld": "a stream withheld notice", "user_withheld": "a stream withheld notice",
        "disconnect": "a stream disconnect message", "warning": "a stream warning", "event": "a stream event",
        "action": "a compliance event", "direct_message": "a direct message", "account": "an archive account",
    ]

    func outcome(expected: String) -> ItemOutcome {
        if let errors = keys["errors"]?.array, let first = errors.first {
            return .skipped("an API error response, not tweets: \(APIErrorText(first).text)")
        }
        if let message = keys["errors"]?.string ?? keys["error"]?.string {
            return .skipped("an API error response, not tweets: \(message)")
        }
        if let name = keys.keys.sorted().lazy.compactMap({ Self.known[$0] }).first {
            return .skipped("\(name), not tweets")
        }
        let names = keys.keys.sorted().prefix(6).joined(separator: ", ")
        return .problem("not a format Smashtag knows: an object with keys \(names) (expected \(expected))")
    }
}

/// The human part of an API error object, v1.1 (`message`, `code`) or v2 (`title`, `detail`).
private struct APIErrorText {
    let text: String

    init<Node: JSONNode>(_ error: Node) {
        let message =
            error["detail"]?.string ?? error["message"]?.string ?? error["title"]?.string ?? "an unnamed error"
        text = error["code"]?.string.map { "\(message) (code \($0))" } ?? message
    }
}
