/// A thread put together from what a source gave of a conversation, in any order: posts that each name the post they
/// answer (`inReplyToID`), the places it could not fill, and how many replies it says each post has. Every source
/// shapes its thread here, so the limits, the order and hostile data are handled once: a chain that loops (or a post
/// answering itself) ends with a row saying so, a parent the source did not give is a row saying it is not
/// available, and no post is shown twice.
public struct ThreadAssembly: Sendable {
    /// A place the source names but cannot fill: the post `id`, answering `parent` when the source says.
    public struct Gap: Sendable {
        public let id: String
        public let parent: String?
        public let gap: ThreadGap

        public init(id: String, parent: String?, gap: ThreadGap) {
            (self.id, self.parent, self.gap) = (id, parent, gap)
        }
    }

    private var posts: [String: Post] = [:]
    private var gaps: [String: Gap] = [:]
    private var children: [String: [String]] = [:]
    /// What the source says each post has in all, where that is more than it gave (Mastodon's `replies_count`,
    /// Bluesky's `replyCount`, the corpus's count).
    private var replyCounts: [String: Int] = [:]

    public init() {}

    public mutating func add(_ post: Post) {
        guard posts[post.id] == nil, gaps[post.id] == nil else { return }
        posts[post.id] = post
        if let parent = post.inReplyToID { children[parent, default: []].append(post.id) }
    }

    public mutating func add(_ gap: Gap) {
        guard posts[gap.id] == nil, gaps[gap.id] == nil else { return }
        gaps[gap.id] = gap
        if let parent = gap.parent { children[parent, default: []].append(gap.id) }
    }

    /// The source says the post has `count` replies in all.
    public mutating func count(replies count: Int, of id: String) {
        replyCounts[id] = max(replyCounts[id] ?? 0, count)
    }

    /// The thread of `focus`, its direct replies after the reply `after`. `directRepliesLeft`: how many direct
    /// replies the source holds after `after`, when it pages them itself (the corpus); else those it gave are all
    /// there are to page through.
    public func thread(
        of focus: Post, after: String?, directRepliesLeft: Int? = nil, limits: ThreadLimits, source: String
    ) -> PostThread {
        var shown: Set<String> = [focus.id]
        var notes: [String] = []
        let ancestors = ancestors(of: focus, shown: &shown, limits: limits, notes: &notes)
        var budget = limits.posts
        var direct = orderedChildren(of: focus.id)
        if let after, let index = direct.firstIndex(of: after) { direct.removeFirst(index + 1) }
        let replies = branches(direct, depth: 1, shown: &shown, budget: &budget, limits: limits)
        let left = max(directRepliesLeft ?? 0, direct.count)
        return PostThread(
            ancestors: ancestors, post: focus, replies: replies, moreReplies: left - replies.count, notes: notes,
            source: source)
    }

    /// The chain above `post`, the root first, ended by the first parent that is missing, blocked, already shown
    /// or past the bound.
    private func ancestors(
        of post: Post, shown: inout Set<String>, limits: ThreadLimits, notes: inout [String]
    ) -> [ThreadItem] {
        var chain: [ThreadItem] = []
        var parent = post.inReplyToID
        while let id = parent {
            guard chain.count < limits.ancestors else {
                notes.append(limits.ancestorsCut)
                break
            }
            guard shown.insert(id).inserted else {
                chain.append(.unavailable(id: id, .cycle))
                break
            }
            if let found = posts[id] {
                chain.append(.post(found))
                parent = found.inReplyToID
            } else {
                chain.append(.unavailable(id: id, gaps[id]?.gap ?? .notFound))
                break
            }
        }
        return chain.reversed()
    }

    /// The replies of `ids` at `depth`, each with theirs, within the page's limits; a reply already shown (a
    /// cycle, a post answering itself) is left out.
    private func branches(
        _ ids: [String], depth: Int, shown: inout Set<String>, budget: inout Int, limits: ThreadLimits
    ) -> [ThreadBranch] {
        var shownHere: [ThreadBranch] = []
        for id in ids where budget > 0 && shownHere.count < limits.replies(atDepth: depth) {
            guard shown.insert(id).inserted else { continue }
            budget -= 1
            let below = orderedChildren(of: id).filter { !shown.contains($0) }
            let total = max(below.count, replyCounts[id] ?? 0)
            guard depth < limits.depth, let post = posts[id] else {
                shownHere.append(ThreadBranch(item: item(id), moreReplies: posts[id] == nil ? 0 : total))
                continue
            }
            let replies = branches(below, depth: depth + 1, shown: &shown, budget: &budget, limits: limits)
            shownHere.append(ThreadBranch(item: .post(post), replies: replies, moreReplies: total - replies.count))
        }
        return shownHere
    }

    private func item(_ id: String) -> ThreadItem {
        posts[id].map(ThreadItem.post) ?? .unavailable(id: id, gaps[id]?.gap ?? .notFound)
    }

    /// A post's replies oldest first; those the source could not give after them, in the source's order.
    private func orderedChildren(of id: String) -> [String] {
        let ids = children[id] ?? []
        let found = ids.compactMap { posts[$0] }.sorted { ($0.created, $0.id) < ($1.created, $1.id) }.map(\.id)
        return found + ids.filter { posts[$0] == nil }
    }
}
