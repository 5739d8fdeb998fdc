import AsyncHTTPClient
import Logging
import Posts

/// Several Mastodon-API servers (Mastodon, GoToSocial, Akkoma and Pleroma) searched as one source
/// (`SMASHTAG_MASTODON_INSTANCES`): each server asked at once with its own deadline, rate limit and place, and every
/// post once, under its ActivityPub `uri`, with the servers it was seen on. A server that fails is named beside the
/// others' posts and keeps its place; only when every server fails is the search an error.
public struct MastodonFleet: BackgroundSource {
    /// One server of the fleet: its client, named by its host (and port when not the default).
    struct Server: Sendable {
        let client: MastodonClient

        var name: String { client.http.configuration.serverName }
        var hasToken: Bool { client.http.configuration.token != nil }
    }

    let servers: [Server]
    /// Where each post seen lately was seen, for its thread and for rechecks.
    let directory = FleetDirectory()
    /// Background work's copy (the tracker's): a server whose window is down to the fifth kept for people's searches
    /// is passed over, said, and keeps its place.
    private(set) var isBackground = false

    public var forBackground: any PostSource {
        var copy = self
        copy.isBackground = true
        return copy
    }
    /// How many rounds a page may take when every post a round got was shown before (a server far behind the others).
    private let rounds = 3

    public init(
        configurations: [MastodonConfiguration], httpClient: HTTPClient? = nil,
        policy: MastodonClient.Policy = MastodonClient.Policy(), logger: Logger = Logger(label: "smashtag.mastodon")
    ) {
        servers = configurations.map {
            Server(client: MastodonClient(configuration: $0, httpClient: httpClient, policy: policy, logger: logger))
        }
    }

    /// The servers' names, in the list's order.
    public var serverNames: [String] { servers.map(\.name) }

    /// What the toggle and a failure say: "Mastodon (3 servers)".
    public var title: String { "Mastodon (\(counted(servers.count, "server")))" }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        let asked = try askable(request.query)
        guard let (direction, start) = Self.start(request) else {
            // An older link from before the servers were asked as one: nothing older is known from there.
            return SearchPage(
                posts: [], newer: request.at(.newest), older: nil, problems: [Self.foreignPosition])
        }
        var position = start
        for round in 1...rounds {
            let outcome = try await ask(asked, request, at: position, direction, background: isBackground)
            let merge = FleetMerge(
                request: request, direction: direction, incoming: position, servers: serverNames)
            let page = merge.page(outcome.answers, failed: outcome.failed, problems: outcome.problems)
            guard page.posts.isEmpty, round < rounds, let next = merge.advanced(outcome.answers, failed: outcome.failed)
            else {
                directory.remember(outcome.answers)
                return page
            }
            position = next
        }
        preconditionFailure("the last round returns")
    }

    /// The direction and the position a request starts from. A newer walk from a position this fleet did not write
    /// (a tracked term's place from before the servers were asked as one) starts again from every server's newest
    /// posts, which counting takes once; an older one has nowhere to go (nil).
    private static func start(_ request: SearchRequest) -> (FleetMerge.Direction, FleetPosition)? {
        switch request.position {
        case .newest: (.newest, FleetPosition())
        case .newer(let word): (.newer, FleetPosition(decoding: word) ?? FleetPosition())
        case .older(let word, _): FleetPosition(decoding: word).map { (.older, $0) }
        }
    }

    static let foreignPosition = """
        This place among the Mastodon servers is from before they were asked as one: search again for older posts.
        """

    /// The servers that can answer the query: all of them, or, for words (which need a token), those with one.
    private func askable(_ query: String) throws -> [Server] {
        let title = "\(counted(servers.count, "server")) of Mastodon"
        let plan = try MastodonQuery.plan(query, hasToken: servers.contains(where: \.hasToken)) {
            MastodonError(server: title, reason: $0)
        }
        if case .search = plan { return servers.filter(\.hasToken) }
        return servers
    }
}
