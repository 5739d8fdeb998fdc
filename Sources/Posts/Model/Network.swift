/// The network a post was published on. With the post's id it is the post's identity: ids of different networks may
/// be equal.
public enum Network: String, Sendable, Hashable, Codable, CaseIterable {
    case twitter
    case mastodon
    case bluesky
}

extension Network {
    /// The network's name as people say it: "X", "Mastodon", "Bluesky".
    public var displayName: String {
        switch self {
        case .twitter: "X"
        case .mastodon: "Mastodon"
        case .bluesky: "Bluesky"
        }
    }

    /// How the network says someone shared a post: "retweeted", "boosted", "reposted".
    public var repostVerb: String {
        switch self {
        case .twitter: "retweeted"
        case .mastodon: "boosted"
        case .bluesky: "reposted"
        }
    }
}
