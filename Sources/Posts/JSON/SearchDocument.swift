/// A page of search results as JSON, as the commands and the web app's `/api/search` give it:
/// `{"errors": […], "newer": …, "older": …, "query": …, "tweets": [post…]}`. `newer` and `older` say where each source
/// goes on (`source:id,…`, the web app's `since=` and `before=`); `errors` has one entry per source that failed
/// while others answered. Absent members are left out and keys come sorted, as `PublicJSON` writes any value.
public struct SearchDocument: Sendable {
    /// A source's failure: `{"message": "…", "source": "mastodon"}`.
    public struct SourceError: Encodable, Sendable, Hashable {
        public let source: String
        public let message: String

        public init(_ failure: SourceFailure) {
            (source, message) = (failure.source, failure.message)
        }
    }

    public let query: String
    public let posts: [Post]
    public let newer: String?
    public let older: String?
    public let errors: [SourceError]

    public init(query: String, posts: [Post], newer: String? = nil, older: String? = nil, errors: [SourceError] = []) {
        (self.query, self.posts, self.newer, self.older, self.errors) = (query, posts, newer, older, errors)
    }

    /// The document, each post as its public JSON.
    public func json() -> String {
        var members: [String] = []
        if !errors.isEmpty { members.append("\"errors\":" + PublicJSON.text(errors)) }
        if let newer { members.append("\"newer\":" + PublicJSON.text(newer)) }
        if let older { members.append("\"older\":" + PublicJSON.text(older)) }
        members.append("\"query\":" + PublicJSON.text(query))
        // The key scripts have read since the first release, when every post was a tweet.
        members.append("\"tweets\":[" + posts.map(\.publicJSON).joined(separator: ",") + "]")
        return "{" + members.joined(separator: ",") + "}"
    }
}
