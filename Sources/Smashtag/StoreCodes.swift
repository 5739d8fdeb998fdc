import Posts

/// How the store writes a network: one explicit mapping, never derived from the order of the cases, so adding a
/// network cannot renumber stored posts.
extension Network {
    var code: Int {
        switch self {
        case .twitter: 0
        case .mastodon: 1
        case .bluesky: 2
        }
    }
}
