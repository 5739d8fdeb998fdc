import Posts

/// The `GET /2/tweets/search/recent` address for a request: every field and expansion Smashtag shows, and the
/// position as `next_token`, `until_id` or `since_id`.
struct RecentSearchURL {
    static let path = "/2/tweets/search/recent"
    /// The API's page sizes: a smaller count is fetched as 10 and cut.
    static let pageSizes = 10...100

    static let fields: [(String, String)] = [
        // Retweets show the original: its author and its media come through the referenced tweet.
        (
            "expansions",
            """
            author_id,attachments.media_keys,referenced_tweets.id,referenced_tweets.id.author_id,\
            referenced_tweets.id.attachments.media_keys
            """
        ),
        ("tweet.fields", "created_at,entities,attachments,author_id,referenced_tweets,note_tweet,lang"),
        ("user.fields", "name,username,profile_image_url"),
        ("media.fields", "url,preview_image_url,width,height,type,variants,duration_ms,alt_text"),
    ]

    let baseURL: String
    let request: SearchRequest

    var parameters: [(String, String)] {
        [("query", XQueryText.v2(request.query)), ("max_results", String(Self.pageSizes.clamped(request.count)))]
            + Self.fields
            + position
    }

    private var position: [(String, String)] {
        switch request.position {
        case .newest: []
        case .newer(let id): [("since_id", id)]
        case .older(_, let token?): [("next_token", token)]
        case .older(let id, nil): [("until_id", id)]
        }
    }

    var string: String {
        baseURL + Self.path + "?" + parameters.map { "\($0)=\(URLQuery.encode($1))" }.joined(separator: "&")
    }
}

extension ClosedRange where Bound: Comparable {
    func clamped(_ value: Bound) -> Bound {
        Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}
