import Posts

/// A post's thread from the replies the corpus stores (each post keeps the one it answers): the chain above it
/// looked up post by post, the replies below it a level at a time, each level's posts fetched while the page has room
/// and the rest counted.
extension CorpusSource: ThreadSource {
    public func thread(of key: PostKey, after: String?, limits: ThreadLimits) async throws -> PostThread? {
        guard let focus = try await corpus.post(id: key.id), focus.network == key.network else { return nil }
        var assembly = ThreadAssembly()
        try await addAncestors(of: focus, to: &assembly, limits: limits)
        let direct = try await addReplies(below: focus, after: after, to: &assembly, limits: limits)
        return assembly.thread(of: focus, after: nil, directRepliesLeft: direct, limits: limits, source: "the corpus")
    }

    /// The chain above `post`, up to one past the bound (so the thread can say it goes on), stopped where a parent is
    /// not in the corpus or comes round again.
    private func addAncestors(of post: Post, to assembly: inout ThreadAssembly, limits: ThreadLimits) async throws {
        var seen: Set<String> = [post.id]
        var parent = post.inReplyToID
        while let id = parent, seen.count <= limits.ancestors + 1, seen.insert(id).inserted {
            guard let found = try await corpus.post(id: id), found.network == post.network else { return }
            assembly.add(found)
            parent = found.inReplyToID
        }
    }

    /// The replies below `focus`, level by level: each level's posts fetched for as many parents as the page can
    /// show, the others' replies only counted. How many direct replies there are after `after`.
    private func addReplies(
        below focus: Post, after: String?, to assembly: inout ThreadAssembly, limits: ThreadLimits
    ) async throws -> Int {
        var level = [focus.key]
        var seen: Set<PostKey> = [focus.key]
        var room = limits.posts
        var direct = 0
        for depth in 1...(limits.depth + 1) where !level.isEmpty {
            let limit = depth > limits.depth ? 0 : limits.replies(atDepth: depth)
            let fetched = Array(level.prefix(max(0, room / max(limit, 1))))
            var found = try await corpus.replies(to: fetched, after: depth == 1 ? after : nil, limit: limit)
            let counted = try await corpus.replies(to: Array(level.dropFirst(fetched.count)), after: nil, limit: 0)
            found.merge(counted) { page, _ in page }
            if depth == 1 { direct = found[focus.key]?.count ?? 0 }
            var next: [Post] = []
            for (parent, replies) in found {
                assembly.count(replies: replies.count, of: parent.id)
                for reply in replies.posts where seen.insert(reply.key).inserted {
                    assembly.add(reply)
                    next.append(reply)
                }
            }
            room -= next.count
            // The oldest replies are shown first, so theirs are the ones worth fetching when room runs out.
            level = next.sorted { ($0.created, $0.id) < ($1.created, $1.id) }.map(\.key)
        }
        return direct
    }
}
