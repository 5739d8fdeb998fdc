import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A query's count on X before collecting: `GET /2/tweets/counts/recent` by day, over the last 7 days that recent
/// search reaches. Only some access levels include it; the API's 403 is then said as it is.
extension XAPIClient: VolumeSource {
    public func volume(of query: String) async throws -> QueryVolume? {
        try XUserNames.check(query)
        let parameters = [("query", query), ("granularity", "day")]
        let url =
            configuration.baseURL + XPostCounts.path + "?"
            + parameters.map { "\($0)=\(URLQuery.encode($1))" }.joined(separator: "&")
        let days = try XPostCounts.days(in: try await fetch(url))
        return QueryVolume(limits: "as X counts the posts its recent search finds, over its last 7 days", days: days)
    }

    public var volumeLimits: String { "X counts the queries its recent search takes" }
}

/// The API's counts document: `{"data": [{"start", "end", "tweet_count"}], "meta": {"total_tweet_count"}}`, as
/// twarc2 `counts` saves it too.
package enum XPostCounts {
    static let path = "/2/tweets/counts/recent"

    package static func days(in body: [UInt8]) throws(XAPIError) -> [QueryVolume.Day] {
        let document: JSONValue
        do throws(JSONDocumentError) { document = try JSONValue.document(body) } catch {
            throw .malformedResponse(error.description)
        }
        guard let data = document["data"]?.array ?? (document["meta"] != nil ? [] : nil) else {
            throw .malformedResponse("its counts have no data")
        }
        var days: [QueryVolume.Day] = []
        for bucket in data {
            guard let start = bucket["start"]?.string.flatMap(WireDate.parseISO8601),
                case .number(let count)? = bucket["tweet_count"], let posts = Int(count)
            else { throw .malformedResponse("a count has no start or tweet_count") }
            days.append(QueryVolume.Day(start: start, posts: posts, accounts: nil))
        }
        return days
    }
}
