import WireJSON

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

    /// The document, each post as its public JSON (`postJSON` may give it from a cache: the web app's), written into
    /// one buffer.
    package func json(postJSON: (Post) -> String = \.publicJSON) -> String {
        var json = JSONWriter()
        json.beginObject()
        if !errors.isEmpty { json.sourceErrors(errors.map { ($0.source, $0.message) }) }
        if let newer { json.member("newer", newer) }
        if let older { json.member("older", older) }
        json.member("query", query)
        // The key scripts have read since the first release, when every post was a tweet.
        json.beginArray("tweets")
        for post in posts { json.element(json: postJSON(post)) }
        json.endArray()
        json.endObject()
        return json.output.string
    }
}

extension JSONWriter {
    /// `"errors": [{"message", "source"}]`: the sources that failed, as search answers and volume reports list them.
    package mutating func sourceErrors(_ errors: [(source: String, message: String)]) {
        beginArray("errors")
        for error in errors {
            beginObject()
            member("message", error.message)
            member("source", error.source)
            endObject()
        }
        endArray()
    }
}
