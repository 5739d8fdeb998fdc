import Posts
import Synchronization

/// Each post's public JSON, made once: a post never changes, and writing a page's 25 again on every request cost the
/// search twin an eighth of its rate (measured). Bounded: past `limit` entries it starts again.
final class PostJSONCache: Sendable {
    let limit: Int
    private let entries = Mutex<[PostKey: String]>([:])

    init(limit: Int = 8_192) {
        self.limit = limit
    }

    func json(for post: Post) -> String {
        if let cached = entries.withLock({ $0[post.key] }) { return cached }
        let json = post.publicJSON
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[post.key] = json
        }
        return json
    }
}
