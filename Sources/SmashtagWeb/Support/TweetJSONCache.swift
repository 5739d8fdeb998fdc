import Synchronization
import Posts
import Twitter

/// Each tweet's JSON (SPEC §5, as `JSONBody` encodes it), made once: a tweet never changes, and encoding 25 of them
/// with `JSONEncoder` was most of a JSON twin's time. Bounded: past `limit` entries it starts again.
final class TweetJSONCache: Sendable {
    let limit: Int
    private let entries = Mutex<[PostKey: String]>([:])

    init(limit: Int = 8_192) {
        self.limit = limit
    }

    func json(for tweet: Post) throws -> String {
        if let cached = entries.withLock({ $0[tweet.key] }) { return cached }
        let json = try JSONBody(tweet).json
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[tweet.key] = json
        }
        return json
    }

    /// `{"errors":[…],"newer":…,"older":…,"query":…,"tweets":[…]}`: what `JSONEncoder` writes for the search
    /// document (keys sorted, absent ones left out), with each tweet from the cache.
    func searchDocument(query: String, tweets: [Post], newer: String?, older: String?, errors: [SourceErrorJSON] = []) throws -> String {
        var members: [String] = []
        if !errors.isEmpty { members.append("\"errors\":" + (try JSONBody(errors).json)) }
        if let newer { members.append("\"newer\":" + (try JSONBody(newer).json)) }
        if let older { members.append("\"older\":" + (try JSONBody(older).json)) }
        members.append("\"query\":" + (try JSONBody(query).json))
        members.append("\"tweets\":[" + (try tweets.map(json(for:)).joined(separator: ",")) + "]")
        return "{" + members.joined(separator: ",") + "}"
    }
}
