import Posts
import WireJSON

/// Whether Bluesky still has each post: `app.bsky.feed.getPosts`, 25 URIs a request, which leaves out posts that were
/// deleted or whose account was deleted or taken down. With an app password through the session, else unsigned (the
/// public AppView answers it). Only posts are asked about: a repost's own record is not a post `getPosts` returns.
extension BlueskyClient: PostLookup {
    public var network: Network { .bluesky }
    public var lookupBatch: Int { 25 }

    public func gone(among ids: [String]) async throws -> Set<String> {
        let asked = ids.filter { $0.hasPrefix("at://") && $0.contains("/app.bsky.feed.post/") }
        guard !asked.isEmpty else { return [] }
        let method = "app.bsky.feed.getPosts"
        let parameters = asked.map { ("uris", $0) }
        let answer = try await publicCall(method, parameters)
        guard let posts = answer["posts"]?.array else {
            throw xrpc.error(.malformed("its answer to \(method) has no posts"))
        }
        return Set(asked).subtracting(posts.compactMap { $0["uri"]?.string })
    }
}

extension BlueskyClient {
    /// A query the public AppView answers without an account: with the session's token when an app password is
    /// configured, else unsigned.
    func publicCall(_ method: String, _ parameters: [(String, String)]) async throws -> JSONValue {
        guard xrpc.configuration.credentials == nil else { return try await call(method, parameters) }
        do {
            return try await xrpc.query(method, parameters, token: nil)
        } catch let failure as XRPCFailure {
            throw xrpc.error(failure.reason)
        }
    }
}
