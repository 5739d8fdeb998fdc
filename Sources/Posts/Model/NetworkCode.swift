/// How the stores (the app database and the corpus) write a network: one explicit mapping, never derived from the
/// order of the cases, so adding a network cannot renumber stored posts.
extension Network {
    package var code: Int {
        switch self {
        case .twitter: 0
        case .mastodon: 1
        case .bluesky: 2
        }
    }

    /// The network a stored code stands for; nil for a code this release does not know.
    package init?(code: Int) {
        guard let network = Network.allCases.first(where: { $0.code == code }) else { return nil }
        self = network
    }
}
