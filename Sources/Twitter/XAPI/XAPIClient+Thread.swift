import Posts
import WireJSON

/// A post's thread on X: the post looked up with its `conversation_id` (`GET /2/tweets?ids=`), the conversation
/// searched (`conversation_id:ID` on `search/recent`, 100 a page, ten pages at most), and a parent the search did not
/// return (older than its seven days) looked up by id, a few hops at most. Each reply names what it answers through
/// `referenced_tweets`.
extension XAPIClient: ThreadSource {
    /// Pages of the conversation search, and parents looked up one by one, at most.
    static let conversationPages = 10
    static let parentLookups = 20

    public func thread(of key: PostKey, after: String?, limits: ThreadLimits) async throws -> PostThread? {
        guard key.network == .twitter, TweetID.isValid(key.id) else { return nil }
        guard let (focus, conversation) = try await lookUp(key.id) else { return nil }
        var known: [String: Post] = [focus.id: focus]
        // A post that began its conversation has it as its replies; a reply shares its root's.
        var token: String?
        for _ in 0..<Self.conversationPages {
            let request = SearchRequest(
                query: "conversation_id:\(conversation)", count: 100,
                position: token.map { .older(than: "", token: $0) } ?? .newest)
            let page = try RecentSearchPage(
                body: try await fetch(RecentSearchURL(baseURL: configuration.baseURL, request: request).string))
            for post in page.tweets { known[post.id] = known[post.id] ?? post }
            guard let next = page.nextToken else { break }
            token = next
        }
        try await addParents(of: focus, to: &known)
        var assembly = ThreadAssembly()
        for post in known.values { assembly.add(post) }
        let thread = assembly.thread(of: focus, after: after, limits: limits, source: "X")
        return PostThread(
            ancestors: thread.ancestors, post: thread.post, replies: thread.replies, moreReplies: thread.moreReplies,
            notes: thread.notes + ["X's search reaches back seven days: older replies are not shown."],
            source: thread.source)
    }

    /// The chain above `post` as far as the posts known reach, then each missing parent looked up by its id.
    private func addParents(of post: Post, to known: inout [String: Post]) async throws {
        var parent = post.inReplyToID
        var lookups = 0
        var seen: Set<String> = [post.id]
        while let id = parent, seen.insert(id).inserted {
            if let found = known[id] {
                parent = found.inReplyToID
                continue
            }
            guard lookups < Self.parentLookups, let (found, _) = try await lookUp(id) else { return }
            lookups += 1
            known[id] = found
            parent = found.inReplyToID
        }
    }

    /// The post and its conversation's id; nil when X has no such post (deleted, or its account gone).
    private func lookUp(_ id: String) async throws -> (Post, String)? {
        let fields = RecentSearchURL.fields.map { name, value in
            (name, name == "tweet.fields" ? value + ",conversation_id" : value)
        }
        let url =
            configuration.baseURL + "/2/tweets?ids=" + id + "&"
            + fields.map { "\($0)=\(URLQuery.encode($1))" }.joined(separator: "&")
        let document = try XPostLookup.document(try await fetch(url))
        guard let post = RecentSearchPage(page: document).tweets.first(where: { $0.id == id }) else { return nil }
        let conversation = document["data"]?.array?.first { $0["id"]?.string == id }?["conversation_id"]?
            .nonEmptyString
        return (post, conversation ?? id)
    }
}
