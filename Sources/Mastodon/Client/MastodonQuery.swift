import Posts

/// What a query becomes on Mastodon: hashtags as a tag timeline, one user as that account's statuses,
/// anything else as a full-text search, which needs a token.
enum MastodonQuery: Equatable {
    /// `GET /api/v1/timelines/tag/:tag`: statuses tagged `tag` or any of `any`, and all of `all`, and none of `none`.
    case tagTimeline(tag: String, any: [String], all: [String], none: [String], onlyMedia: Bool)
    /// `GET /api/v1/accounts/:id/statuses` for the account `address` (`alice` or `alice@host`).
    case account(address: String, flags: AccountFlags)
    /// `GET /api/v2/search?type=statuses`.
    case search(String)

    /// Nil when only a full-text search could answer and there is no token for one.
    init?(_ query: SearchQuery, text: String, hasToken: Bool) {
        if let timeline = Self.tagTimeline(query) ?? Self.account(query) {
            self = timeline
        } else if hasToken {
            self = .search(text)
        } else {
            return nil
        }
    }

    /// The query as ANDed parts.
    private static func parts(_ query: SearchQuery) -> [SearchQuery] {
        if case .all(let parts) = query { parts } else { [query] }
    }

    private static func tagTimeline(_ query: SearchQuery) -> MastodonQuery? {
        var (anyOf, all, none, onlyMedia) = ([String](), [String](), [String](), false)
        for part in parts(query) {
            switch part {
            case .term(.hashtag(let tag)): all.append(tag)
            case .term(.filter(.media)): onlyMedia = true
            case .excluding(.term(.hashtag(let tag))): none.append(tag)
            case .any(let alternatives) where anyOf.isEmpty:
                guard let tags = hashtags(alternatives) else { return nil }
                anyOf = tags
            default: return nil
            }
        }
        let positive = anyOf.isEmpty ? all : anyOf
        guard let first = positive.first else { return nil }
        return .tagTimeline(
            tag: first, any: anyOf.isEmpty ? [] : Array(anyOf.dropFirst()),
            all: anyOf.isEmpty ? Array(all.dropFirst()) : all,
            none: none, onlyMedia: onlyMedia
        )
    }

    private static func hashtags(_ alternatives: [SearchQuery]) -> [String]? {
        let tags = alternatives.compactMap { if case .term(.hashtag(let tag)) = $0 { tag } else { nil } }
        return tags.count == alternatives.count ? tags : nil
    }

    /// `from:alice`, `@alice`, or both ORed (what following a user searches), with `filter:media`,
    /// `-filter:retweets` or `-filter:replies` beside them.
    private static func account(_ query: SearchQuery) -> MastodonQuery? {
        var (address, flags) = (String?.none, AccountFlags())
        for part in parts(query) {
            switch part {
            case .term(.filter(.media)): flags.onlyMedia = true
            case .excluding(.term(.filter(.reposts))): flags.excludeReblogs = true
            case .excluding(.term(.filter(.replies))): flags.excludeReplies = true
            default:
                guard address == nil, let user = user(part) else { return nil }
                address = user
            }
        }
        return address.map { .account(address: $0, flags: flags) }
    }

    /// How `text` is asked of a server (a fleet asks its servers together; `hasToken`: any of them has a token), or
    /// why it cannot be, in the words of `refused`.
    static func plan(
        _ text: String, hasToken: Bool, refused: (MastodonError.Reason) -> MastodonError
    ) throws -> MastodonQuery {
        let query = try SearchQuery(parsing: text)
        let plan = MastodonQuery(query, text: text, hasToken: hasToken)
        if let refusal = refusal(of: query, plan: plan) { throw refused(.unsupportedQuery(refusal)) }
        guard let plan else { throw refused(.wordsNeedToken) }
        return plan
    }

    /// Why the server cannot answer a query: one that asks for a conversation, or picks replies out where only an
    /// account's statuses can (`exclude_replies`); nil for any other query.
    static func refusal(of query: SearchQuery, plan: MastodonQuery?) -> String? {
        if query.namesConversation {
            return "it has no conversation: search (a post's thread shows its conversation)"
        }
        if case .account = plan { return nil }
        guard query.names(.replies) else { return nil }
        return """
            its timelines cannot pick out replies: only one user's posts can leave them out \
            (from:user -filter:replies)
            """
    }

    private static func user(_ part: SearchQuery) -> String? {
        switch part {
        case .term(.from(let user)), .term(.mention(let user)): return user
        case .any(let alternatives):
            let users = Set(alternatives.map(user))
            return users.count == 1 ? users.first! : nil
        default: return nil
        }
    }
}

/// What an account's statuses are asked to leave out or keep.
struct AccountFlags: Equatable {
    var onlyMedia = false
    var excludeReblogs = false
    var excludeReplies = false

    var parameters: [(String, String)] {
        [("only_media", onlyMedia), ("exclude_reblogs", excludeReblogs), ("exclude_replies", excludeReplies)]
            .filter(\.1).map { ($0.0, "true") }
    }
}

extension SearchQuery {
    /// Whether the query names `filter:…` of this kind anywhere, required or excluded.
    func names(_ filter: SearchFilter) -> Bool {
        contains { $0 == .filter(filter) }
    }
}
