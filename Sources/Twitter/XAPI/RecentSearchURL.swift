import Posts

/// The `GET /2/tweets/search/recent` address for a request: every field and expansion Smashtag shows, and the
/// position as `next_token`, `until_id` or `since_id`.
struct RecentSearchURL {
    static let path = "/2/tweets/search/recent"
    /// The API's page sizes: a smaller count is fetched as 10 and cut.
    static let pageSizes = 10...100

    static let fields: [(String, String)] = [
        // Retweets show the original: its author and its media come through the referenced tweet.
        ("expansions", "author_id,attachments.media_keys,referenced_tweets.id,referenced_tweets.id.author_id,referenced_tweets.id.attachments.media_keys"),
        ("tweet.fields", "created_at,entities,attachments,author_id,referenced_tweets,note_tweet"),
        ("user.fields", "name,username,profile_image_url"),
        ("media.fields", "url,preview_image_url,width,height,type"),
    ]

    let baseURL: String
    let request: SearchRequest

    var parameters: [(String, String)] {
        [("query", request.query), ("max_results", String(Self.pageSizes.clamped(request.count)))] + Self.fields + position
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

/// Query-string values, built by hand.
package enum URLQuery {

    /// Everything but RFC 3986's unreserved characters, byte by byte of the UTF-8: `#`, `@`, `+`, spaces, quotes and
    /// non-ASCII all arrive as typed (Foundation's URLComponents would leave `+` as is, which servers read as a space).
    package static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}

extension ClosedRange where Bound: Comparable {
    func clamped(_ value: Bound) -> Bound {
        Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}
