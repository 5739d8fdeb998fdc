import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a term's counted posts came from: how many each network gave, in a window (by the posts' own times, as
/// the table counts them). A term searched on several sources is only as broad as its networks: the Popularity page
/// says so beside the table.
public struct TermOrigins: Sendable, Hashable, Codable {
    /// One network's part.
    public struct Share: Sendable, Hashable, Codable {
        public let network: Network
        public let posts: Int
    }

    /// The term as Recents shows it.
    public let term: String
    public let window: TimeWindow
    /// The networks that gave posts, most first (then by name).
    public let networks: [Share]

    /// Every counted post in the window.
    public var posts: Int { networks.reduce(0) { $0 + $1.posts } }

    /// As the Popularity page and `smashtag popularity` say it: "From 1,250 posts: 1,100 from X, 150 from
    /// Mastodon." ("From 80 posts, all from Bluesky."); nil when nothing was counted in the window.
    public var sentence: String? {
        guard let first = networks.first else { return nil }
        let total = postCount(posts)
        guard networks.count > 1 else { return "From \(total), all from \(first.network.displayName)." }
        let parts = networks.map { "\(grouped($0.posts)) from \($0.network.displayName)" }
        return "From \(total): " + parts.joined(separator: ", ") + "."
    }

    init(term: String, window: TimeWindow, counts: [(network: Network, posts: Int)]) {
        (self.term, self.window) = (term, window)
        networks = counts.filter { $0.posts > 0 }.map { Share(network: $0.network, posts: $0.posts) }
            .sorted { ($1.posts, $0.network.rawValue) < ($0.posts, $1.network.rawValue) }
    }
}

/// The origins of the terms in Recents, as the store reads them.
public struct Origins: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Where the term's counted posts came from in the window ending `now`; nil when the term is not in Recents.
    public func of(_ term: String, window: TimeWindow = .all, now: Date = Date()) async throws -> TermOrigins? {
        try await database.store.origins(SearchTermKey(term), window, at: now)
    }
}
