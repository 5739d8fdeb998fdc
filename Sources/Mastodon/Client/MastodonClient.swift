import AsyncHTTPClient
import HTTPExchange
import Logging
import Posts
import Synchronization

/// Searches a Mastodon server behind the same interface as the corpus: hashtags through the public tag
/// timeline, a user through the account's statuses, words through `/api/v2/search` with a token.
///
/// A page follows the server's pages (40 statuses each) until it is full: *older* from `max_id`, *newer* from
/// `min_id` onwards (the statuses just after the newest shown, so nothing is skipped and none repeats).
public struct MastodonClient: PostSource {
    /// Limits; tests shorten them.
    public struct Policy: Sendable {
        public var deadline: Duration = .seconds(10)
        public var maximumBodyBytes = 4 << 20
        /// The most statuses Mastodon sends in one answer.
        public var pageSize = 40

        public init() {}
    }

    let http: MastodonHTTP
    let policy: Policy
    private let accountIDs = AccountIDs()

    public init(
        configuration: MastodonConfiguration, httpClient: HTTPClient? = nil, policy: Policy = Policy(),
        logger: Logger = Logger(label: "smashtag.mastodon")
    ) {
        self.http = MastodonHTTP(
            configuration: configuration, client: httpClient ?? .unredirected, policy: policy, logger: logger)
        self.policy = policy
    }

    /// What the server's `X-RateLimit-*` headers last said.
    public var budget: RateLimitBudget? { http.budget }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        try await walk(request).page
    }

    /// A page as `search` gives it, with the walk that made it (each status's `uri`, for a fleet).
    func walk(_ request: SearchRequest) async throws -> PageWalk {
        let plan = try MastodonQuery.plan(
            request.query, hasToken: http.configuration.token != nil, refused: http.error)
        let endpoint = try await endpoint(for: plan)
        var walk = PageWalk(request: request)
        while let cursor = walk.nextCursor {
            let limit = min(policy.pageSize, request.count - walk.posts.count)
            let answer = try await http.statuses(endpoint, cursor: cursor, limit: limit)
            walk.take(answer, limit: limit)
        }
        return walk
    }

    private func endpoint(for plan: MastodonQuery) async throws -> Endpoint {
        switch plan {
        case .tagTimeline(let tag, let any, let all, let none, let onlyMedia):
            return Endpoint.tagTimeline(tag: tag, any: any, all: all, none: none, onlyMedia: onlyMedia)
        case .account(let address, let flags):
            return Endpoint.accountStatuses(id: try await accountID(address), address: address, flags: flags)
        case .search(let text):
            return Endpoint.search(text)
        }
    }

    /// Account ids never change, so each address is looked up once.
    private func accountID(_ address: String) async throws -> String {
        if let id = accountIDs.ids.withLock({ $0[address.lowercased()] }) { return id }
        let id = try await http.accountID(address)
        accountIDs.ids.withLock { $0[address.lowercased()] = id }
        return id
    }
}

/// Account ids by lower-cased address, shared by copies of a client.
private final class AccountIDs: Sendable {
    let ids = Mutex<[String: String]>([:])
}

/// Following a server's pages until a page is full.
struct PageWalk {
    let request: SearchRequest
    private(set) var posts: [Post] = []
    private(set) var problems: [String] = []
    /// Each status's ActivityPub `uri` by its id on this server.
    private(set) var uris: [String: String] = [:]
    /// Where the next answer starts; nil when done.
    private(set) var nextCursor: Cursor?
    private(set) var hasOlder = false

    enum Cursor: Equatable {
        case newest
        case olderThan(String)
        case newerThan(String)
    }

    init(request: SearchRequest) {
        self.request = request
        switch request.position {
        case .newest: nextCursor = .newest
        case .older(let id, let token): nextCursor = .olderThan(token ?? id)
        case .newer(let id): nextCursor = .newerThan(id)
        }
    }

    private var isGoingNewer: Bool {
        if case .newerThan = nextCursor { true } else { false }
    }

    mutating func take(_ answer: StatusesAnswer, limit: Int) {
        let known = Set(posts.map(\.id))
        posts += answer.posts.filter { !known.contains($0.id) }
        problems += answer.problems
        uris.merge(answer.uris) { first, _ in first }
        let full = answer.statusCount >= limit
        let continuation =
            isGoingNewer
            ? answer.link.newerID ?? (answer.hasLink || !full ? nil : answer.posts.first?.id)
            : answer.link.olderID ?? (answer.hasLink || !full ? nil : answer.posts.last?.id)
        hasOlder = !isGoingNewer && continuation != nil && answer.statusCount > 0
        guard answer.statusCount > 0, posts.count < request.count, let continuation else {
            nextCursor = nil
            return
        }
        nextCursor = isGoingNewer ? .newerThan(continuation) : .olderThan(continuation)
    }

    /// Newest first, as every source pages.
    var page: SearchPage {
        let shown = posts.sorted {
            $0.created != $1.created ? $0.created > $1.created : MastodonID.isBefore($1.id, $0.id)
        }
        return SearchPage(
            posts: shown, newer: request.newer(after: shown),
            older: request.older(after: shown, hasMore: hasOlder), problems: problems
        )
    }
}

/// Mastodon ids are decimal strings of growing length: a longer one is later.
enum MastodonID {
    static func isBefore(_ lhs: String, _ rhs: String) -> Bool {
        lhs.count != rhs.count ? lhs.count < rhs.count : lhs < rhs
    }
}
