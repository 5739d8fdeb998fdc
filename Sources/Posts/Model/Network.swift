/// The network a post was published on. With the post's id it is the post's identity: ids of different networks may
/// be equal.
public enum Network: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case twitter
    case mastodon
    case bluesky

    /// How the network is named to people.
    public var displayName: String {
        switch self {
        case .twitter: "X"
        case .mastodon: "Mastodon"
        case .bluesky: "Bluesky"
        }
    }

    public static func < (lhs: Network, rhs: Network) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
