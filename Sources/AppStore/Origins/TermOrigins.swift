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

    /// A server's part of the posts of a fleet of servers (Mastodon's instances asked as one).
    public struct ServerShare: Sendable, Hashable, Codable {
        public let server: String
        public let posts: Int
    }

    /// The term as Recents shows it.
    public let term: String
    public let window: TimeWindow
    /// The networks that gave posts, most first (then by name).
    public let networks: [Share]
    /// The fleet's posts by the server each was written on (its `uri`'s host), most first: the fediverse's only
    /// honest geography. Empty when no fleet gave the term posts.
    public let writtenOn: [ServerShare]
    /// The fleet's posts by each server that gave them (a post several gave counts for each), most first.
    public let seenOn: [ServerShare]

    /// A server of the fleet with both its parts.
    public struct ServerRow: Sendable, Hashable {
        public let server: String
        public let written: Int
        public let gave: Int
    }

    /// Each server that posts were written on or that gave them, most posts first (then by name).
    public var servers: [ServerRow] {
        let written = Dictionary(writtenOn.map { ($0.server, $0.posts) }, uniquingKeysWith: +)
        let gave = Dictionary(seenOn.map { ($0.server, $0.posts) }, uniquingKeysWith: +)
        return Set(written.keys).union(gave.keys)
            .map { ServerRow(server: $0, written: written[$0] ?? 0, gave: gave[$0] ?? 0) }
            .sorted { ($1.written + $1.gave, $0.server) < ($0.written + $0.gave, $1.server) }
    }

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

    init(
        term: String, window: TimeWindow, counts: [(network: Network, posts: Int)],
        writtenOn: [(server: String, posts: Int)] = [], seenOn: [(server: String, posts: Int)] = []
    ) {
        (self.term, self.window) = (term, window)
        networks = counts.filter { $0.posts > 0 }.map { Share(network: $0.network, posts: $0.posts) }
            .sorted { ($1.posts, $0.network.rawValue) < ($0.posts, $1.network.rawValue) }
        self.writtenOn = Self.shares(writtenOn)
        self.seenOn = Self.shares(seenOn)
    }

    private static func shares(_ counts: [(server: String, posts: Int)]) -> [ServerShare] {
        counts.filter { $0.posts > 0 }.map { ServerShare(server: $0.server, posts: $0.posts) }
            .sorted { ($1.posts, $0.server) < ($0.posts, $1.server) }
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
