import HTTPTypes
import Posts
import Team

/// Every route the site serves, by name. Controllers register these patterns and `SiteURL` builds links from the
/// same paths, so a link cannot point at a route that does not exist; the method check answers 405 from them.
enum Route: Sendable, Hashable {
    case home
    case searchRoot
    case search(Tab)
    /// A post's Mentions page, by network and id.
    case post(Tab)
    /// The address earlier releases gave an X post's Mentions page (`/tweets/ID`): redirected to `post`.
    case earlierPost(Tab)
    /// A post in its conversation: the posts it answers and its replies.
    case thread(Tab)
    case popularity(Tab)
    /// A mention's trend under a term: the chart page.
    case trend(Tab)
    /// A term's co-mention network: the drawing, its table and its exports.
    case network(Tab)
    /// How much each network says there is for a term, before collecting it.
    case volume(Tab)
    case image(Tab)
    case images(Tab)
    case recents
    case deleteRecent
    /// Forms that start and stop tracking a term, from Recents and Popularity.
    case track
    case untrack
    case apiSearch
    case apiPost
    /// The address earlier releases gave an X post's JSON (`/api/tweets/ID`).
    case apiEarlierPost
    /// A post's thread as JSON.
    case apiThread
    case apiRecents
    /// The tracked terms (GET), and tracking one (POST a JSON object).
    case apiTracking
    case apiTrack
    /// Untracking one (POST a JSON object).
    case apiUntrack
    case apiPopularity
    case apiPopularityEvents
    /// A term's most replied-to and quoted posts and who starts conversations, as JSON.
    case apiConversations
    case apiTrend
    /// A network as JSON, CSV or GEXF.
    case apiNetwork
    /// A term's posts as a dataset: NDJSON, or CSV tables in a zip.
    case apiDataset
    case apiVolume
    /// A search's RSS feed.
    case searchFeed
    case asset
    case demoAvatar
    case demoImage
    /// The sign-in page (GET) and its form (POST).
    case signIn
    case startSignIn
    case signOut
    /// Who you are, your sign-ins and your role.
    case account
    /// The audit trail, a page and its JSON twin.
    case audit
    case apiAudit
    /// What operators' tools read: the API's description, whether the process answers, whether it can serve, and
    /// its metrics.
    case apiDescription
    case health
    case readiness
    case metrics

    static let all: [Route] =
        [
            .home, .searchRoot, .recents, .deleteRecent, .track, .untrack, .apiSearch, .apiPost, .apiEarlierPost,
            .apiThread, .apiRecents, .apiTracking, .apiTrack, .apiUntrack, .apiPopularity, .apiPopularityEvents,
            .apiConversations, .apiTrend,
            .apiNetwork, .apiDataset, .apiVolume, .searchFeed, .asset, .demoAvatar, .demoImage, .signIn, .startSignIn,
            .signOut,
            .account, .audit, .apiAudit, .apiDescription, .health, .readiness, .metrics,
        ]
        + Tab.allCases.flatMap {
            [
                .search($0), .post($0), .earlierPost($0), .thread($0), .popularity($0), .trend($0), .network($0),
                .volume($0),
                .image($0), .images($0),
            ]
        }

    /// The router's pattern: a `:name` segment matches any one segment.
    var pattern: String {
        switch self {
        case .home: "/"
        case .searchRoot: "/search"
        case .search(let tab): "/\(tab.rawValue)/search"
        case .post(let tab): "/\(tab.rawValue)/posts/:network/:id"
        case .earlierPost(let tab): "/\(tab.rawValue)/tweets/:id"
        case .thread(let tab): "/\(tab.rawValue)/thread/:network/:id"
        case .popularity(let tab): "/\(tab.rawValue)/popularity"
        case .trend(let tab): "/\(tab.rawValue)/popularity/trend"
        case .network(let tab): "/\(tab.rawValue)/popularity/network"
        case .volume(let tab): "/\(tab.rawValue)/popularity/volume"
        case .image(let tab): "/\(tab.rawValue)/image"
        case .images(let tab): "/\(tab.rawValue)/images"
        case .recents: "/recents"
        case .deleteRecent: "/recents/delete"
        case .track: "/recents/track"
        case .untrack: "/recents/untrack"
        case .apiSearch: "/api/search"
        case .apiPost: "/api/posts/:network/:id"
        case .apiEarlierPost: "/api/tweets/:id"
        case .apiThread: "/api/threads/:network/:id"
        case .apiRecents: "/api/recents"
        case .apiTracking, .apiTrack: "/api/tracking"
        case .apiUntrack: "/api/tracking/delete"
        case .apiPopularity: "/api/popularity"
        case .apiPopularityEvents: "/api/popularity/events"
        case .apiConversations: "/api/popularity/conversations"
        case .apiTrend: "/api/popularity/trend"
        case .apiNetwork: "/api/popularity/network"
        case .apiDataset: "/api/popularity/posts"
        case .apiVolume: "/api/volume"
        case .searchFeed: "/search/feed"
        case .asset: "/assets/:name"
        case .demoAvatar: "/demo/avatars/:name"
        case .demoImage: "/demo/images/:name"
        case .signIn, .startSignIn: "/signin"
        case .signOut: "/signout"
        case .account: "/account"
        case .audit: "/audit"
        case .apiAudit: "/api/audit"
        case .apiDescription: "/api/openapi.json"
        case .health: "/healthz"
        case .readiness: "/readyz"
        case .metrics: "/metrics"
        }
    }

    /// The one method a route answers (GET routes answer HEAD too).
    var method: HTTPRequest.Method {
        switch self {
        case .deleteRecent, .track, .untrack, .apiTrack, .apiUntrack, .startSignIn, .signOut: .post
        default: .get
        }
    }

    /// The least a caller needs to use it (the GUIDE's table of roles says the same). Some routes ask more of some
    /// requests: a network's CSV and GEXF need a researcher, an identified dataset an admin, untracking someone
    /// else's term an admin.
    var access: Access {
        switch self {
        case .asset, .demoAvatar, .demoImage, .signIn, .startSignIn, .signOut, .apiDescription, .health, .readiness:
            .anyone
        // A thread asks the corpus for a visitor, and a live network only for someone signed in (a live search).
        case .home, .searchRoot, .search, .post, .earlierPost, .thread, .popularity, .trend, .network, .image, .images,
            .apiSearch, .apiPost, .apiEarlierPost, .apiThread, .apiPopularity, .apiPopularityEvents, .apiTrend,
            .apiNetwork, .apiConversations,
            .searchFeed:
            .visitor
        // The volume asks live networks, which visitors do not search.
        case .recents, .deleteRecent, .apiRecents, .apiTracking, .account, .volume, .apiVolume: .viewer
        case .track, .untrack, .apiTrack, .apiUntrack, .apiDataset: .researcher
        case .audit, .apiAudit: .admin
        case .metrics: .thisComputerOrAdmin
        }
    }

    /// Whether the route answers machines rather than people: its errors are JSON (`{"error": …}`), never a page, and
    /// a caller who may not use it is refused, never sent to sign in.
    static func answersJSON(_ path: Substring) -> Bool {
        path.hasPrefix("/api/") || path == Route.health.pattern || path == Route.readiness.pattern
            || path == Route.metrics.pattern
    }

    /// The probes answer without asking who calls (no store read): a load balancer asks them every few seconds, and
    /// `/healthz` must answer while the database is away.
    static func isProbe(_ path: Substring) -> Bool {
        path == Route.health.pattern || path == Route.readiness.pattern
    }

    /// The address of this route; `parameter` fills its `:name` segment, percent-encoded.
    func path(_ parameter: String? = nil) -> String {
        guard let parameter, let slash = pattern.lastIndex(of: "/") else { return pattern }
        return pattern[...slash] + URLQuery.encode(parameter)
    }

    /// The address of a post's route: its network and its id (percent-encoded, so a Bluesky `at://` id stays one
    /// segment).
    func path(_ key: PostKey) -> String {
        PostPath(self).path(key)
    }
}

/// A post route's addresses with the route's fixed part worked out once: a page links every one of its rows.
struct PostPath: Sendable {
    private let prefix: String

    init(_ route: Route) {
        prefix = String(route.pattern.prefix { $0 != ":" })
    }

    func path(_ key: PostKey) -> String {
        prefix + key.network.rawValue + "/" + URLQuery.encode(key.id)
    }
}
