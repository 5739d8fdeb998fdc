import Posts

/// A fleet's post is asked of the server that gave it lately, by its id there; one seen before this process started
/// is asked of its own server when that is in the list and its `uri` is Mastodon's (`…/statuses/<id>`).
extension MastodonFleet: ThreadSource, PostLookup, VolumeParts {
    public func thread(of key: PostKey, after: String?, limits: ThreadLimits) async throws -> PostThread? {
        guard key.network == .mastodon, let (server, id) = place(of: key.id) else { return nil }
        return try await server.client.thread(ofStatus: id, after: after, limits: limits, byURI: true)
    }

    public var network: Network { .mastodon }
    public var lookupBatch: Int { 1 }

    /// The posts known to be gone; a post no server of the list can be asked about is not taken for gone.
    public func gone(among ids: [String]) async throws -> Set<String> {
        var gone = Set<String>()
        for uri in ids {
            guard let (server, id) = place(of: uri) else { continue }
            if try await !server.client.gone(among: [id]).isEmpty { gone.insert(uri) }
        }
        return gone
    }

    /// Each server counts a hashtag's last 7 days as it saw them: said one by one.
    public var volumeParts: [NamedSource] {
        servers.map { NamedSource(name: "mastodon", title: "Mastodon (\($0.name))", source: $0.client) }
    }

    private func place(of uri: String) -> (Server, String)? {
        if let place = directory.place(of: uri), let server = servers.first(where: { $0.name == place.server }) {
            return (server, place.id)
        }
        let parts = uri.split(separator: "/")
        guard let home = WebLink.authority(of: uri), parts.count >= 2, parts[parts.count - 2] == "statuses",
            let server = servers.first(where: { $0.name.lowercased() == home })
        else { return nil }
        return (server, String(parts[parts.count - 1]))
    }
}
