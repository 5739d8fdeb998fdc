import Posts
import WireJSON

/// A post's thread as Bluesky's AppView gives it: `app.bsky.feed.getPostThread`, the post with its parents (up to
/// `parentHeight`) and its replies (down to `depth`) as nested `#threadViewPost`s; a post deleted or hidden by a
/// block is a `#notFoundPost` or `#blockedPost` in its place. Each post view says how many replies it has in all
/// (`replyCount`), so what lies below the depth asked is counted.
extension BlueskyClient: ThreadSource {
    public func thread(of key: PostKey, after: String?, limits: ThreadLimits) async throws -> PostThread? {
        guard key.network == .bluesky, key.id.hasPrefix("at://") else { return nil }
        let parameters = [
            ("uri", key.id), ("depth", String(limits.depth)), ("parentHeight", String(min(limits.ancestors, 1_000))),
        ]
        let answer: JSONValue
        do {
            answer = try await publicCall("app.bsky.feed.getPostThread", parameters)
        } catch let failure as BlueskyError where failure.reason.isNotFound {
            return nil
        }
        guard let root = answer["thread"], root.object != nil else {
            throw xrpc.error(.malformed("its answer to getPostThread has no thread"))
        }
        guard let view = root["post"], view.object != nil else { return nil }
        var assembly = ThreadAssembly()
        Self.addParents(of: root, to: &assembly)
        Self.addReplies(of: root, to: &assembly)
        let focus: Post
        do throws(BlueskyDecodingError) { focus = try PostViewDecoder.post(from: view) } catch {
            throw xrpc.error(.malformed(error.description))
        }
        return assembly.thread(
            of: focus, after: after, limits: limits, source: "Bluesky (\(xrpc.configuration.serviceName))")
    }

    /// The chain of parents, the nearest first; the first that is gone or blocked ends it as a gap.
    private static func addParents(of node: JSONValue, to assembly: inout ThreadAssembly) {
        var parent = node["parent"]
        while let current = parent, current.object != nil {
            guard add(current, answering: nil, to: &assembly) else { return }
            parent = current["parent"]
        }
    }

    /// Every reply below `node`, with what each says it has in all.
    private static func addReplies(of node: JSONValue, to assembly: inout ThreadAssembly) {
        let parent = node["post"]?["uri"]?.string
        for reply in node["replies"]?.array ?? [] where add(reply, answering: parent, to: &assembly) {
            addReplies(of: reply, to: &assembly)
        }
    }

    /// A thread node as a post, or as a gap where it is gone, blocked or cannot be read; whether it was a post.
    private static func add(_ node: JSONValue, answering parent: String?, to assembly: inout ThreadAssembly) -> Bool {
        let uri = node["post"]?["uri"]?.string ?? node["uri"]?.string ?? ""
        if let view = node["post"], view.object != nil, let post = try? PostViewDecoder.post(from: view) {
            assembly.add(post)
            if let count = view["replyCount"]?.int { assembly.count(replies: count, of: post.id) }
            return true
        }
        let gap: ThreadGap = node["blocked"]?.isTrue == true ? .blocked : .notFound
        assembly.add(ThreadAssembly.Gap(id: uri, parent: parent, gap: gap))
        return false
    }
}

extension BlueskyError.Reason {
    var isNotFound: Bool {
        if case .notFound = self { true } else { false }
    }
}
