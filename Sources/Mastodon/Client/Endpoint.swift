import Posts

/// A Mastodon API path and its fixed parameters; paging parameters are added per request.
struct Endpoint: Sendable {
    let path: String
    let parameters: [(String, String)]
    /// Where a 401 means the server hides tag timelines from visitors.
    let isTagTimeline: Bool
    /// `/api/v2/search` answers an object whose `statuses` are the results.
    let isSearch: Bool

    static func tagTimeline(tag: String, any: [String], all: [String], none: [String], onlyMedia: Bool) -> Endpoint {
        let lists = any.map { ("any[]", $0) } + all.map { ("all[]", $0) } + none.map { ("none[]", $0) }
        return Endpoint(
            path: "/api/v1/timelines/tag/" + URLQuery.encode(tag),
            parameters: lists + (onlyMedia ? [("only_media", "true")] : []), isTagTimeline: true, isSearch: false
        )
    }

    static func accountStatuses(id: String, address: String, flags: AccountFlags) -> Endpoint {
        Endpoint(
            path: "/api/v1/accounts/\(URLQuery.encode(id))/statuses", parameters: flags.parameters,
            isTagTimeline: false, isSearch: false)
    }

    static func search(_ text: String) -> Endpoint {
        Endpoint(
            path: "/api/v2/search", parameters: [("q", text), ("type", "statuses"), ("resolve", "false")],
            isTagTimeline: false, isSearch: true)
    }

    /// The query string for one answer, starting at `cursor`.
    func query(cursor: PageWalk.Cursor, limit: Int) -> String {
        var pairs = parameters + [("limit", String(limit))]
        switch cursor {
        case .newest: break
        case .olderThan(let id): pairs.append(("max_id", id))
        case .newerThan(let id): pairs.append(("min_id", id))
        }
        return pairs.map { URLQuery.encode($0.0) + "=" + URLQuery.encode($0.1) }.joined(separator: "&")
    }
}
