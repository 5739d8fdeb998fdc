import Posts

/// What a query becomes on Mastodon: hashtags as a tag timeline, one user as that account's statuses,
/// anything else as a full-text search, which needs a token.
enum MastodonQuery: Equatable {
    /// `GET /api/v1/timelines/tag/:tag`: statuses tagged `tag` or any of `any`, and all of `all`, and none of `none`.
    case tagTimeline(tag: String, any: [String], all: [String], none: [String], onlyMedia: Bool)
    /// `GET /api/v1/accounts/:id/statuses` for the account `address` (`alice` or `alice@host`).
    case account(address: String, onlyMedia: Bool, excludeReblogs: Bool)
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

    /// `from:alice`, `@alice`, or both ORed (what following a user searches), with `filter:media` or
    /// `-filter:retweets` beside them.
    private static func account(_ query: SearchQuery) -> MastodonQuery? {
        var (address, onlyMedia, excludeReblogs) = (String?.none, false, false)
        for part in parts(query) {
            switch part {
            case .term(.filter(.media)): onlyMedia = true
            case .excluding(.term(.filter(.reposts))): excludeReblogs = true
            default:
                guard address == nil, let user = user(part) else { return nil }
                address = user
            }
        }
        return address.map { .account(address: $0, onlyMedia: onlyMedia, excludeReblogs: excludeReblogs) }
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
