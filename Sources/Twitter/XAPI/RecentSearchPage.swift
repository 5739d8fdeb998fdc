import Posts
import WireJSON

/// A `search/recent` response body read into tweets, the paging token and the partial errors it reports.
struct RecentSearchPage {
    let tweets: [Post]
    let nextToken: String?
    /// Partial errors of a 200 page and tweets that could not be read: the rest of the page is kept.
    let problems: [String]

    init(body: [UInt8]) throws(XAPIError) {
        var reader = JSONItemReader(bytes: body)
        switch reader.next() {
        case .item(let item):
            guard item.value["data"] != nil || item.value["meta"] != nil else {
                throw XAPIError.malformedResponse("a JSON object without “data” or “meta”")
            }
            self.init(page: item.value)
        case .malformed(_, let message): throw XAPIError.malformedResponse(message)
        default: throw XAPIError.malformedResponse("an empty body")
        }
    }

    /// A page already read: a search's, or a lookup's `data` (none when every id was missing).
    init(page: JSONValue) {
        var tweets: [Post] = []
        var problems: [String] = []
        for outcome in DocumentDecoder(archiveAccount: nil).decode(page) {
            switch outcome {
            case .post(let tweet): tweets.append(tweet)
            case .problem(let message), .skipped(let message): problems.append(message)
            }
        }
        self.tweets = tweets
        self.problems = problems
        nextToken = page["meta"]?["next_token"]?.nonEmptyString
    }
}

extension JSONValue {
    /// The first error's words in an X API error body (`errors[0].message`, else `detail`, else `title`).
    static func apiErrorDetail(in body: [UInt8]) -> String? {
        var reader = JSONItemReader(bytes: body)
        guard case .item(let item) = reader.next() else { return nil }
        let value = item.value
        let first = value["errors"]?.array?.first
        return first?["message"]?.string ?? value["detail"]?.string ?? first?["detail"]?.string
            ?? value["title"]?.string
    }
}
