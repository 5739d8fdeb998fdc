import AsyncHTTPClient
import Logging
import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Searches Bluesky behind the same interface as the corpus: `app.bsky.feed.searchPosts`, newest first,
/// with a session from an app password. Each `OR` alternative is its own request; the answers are merged.
///
/// *Older* pages ask `until` the oldest post shown; *newer* pages ask `since` the newest post shown and follow the
/// service's pages until they reach it (up to a limit, past which the page says posts were skipped). Both read the
/// post's time from its record key, which is close to the time the service sorts by.
public struct BlueskyClient: PostSource {
    /// Limits; tests shorten them.
    public struct Policy: Sendable {
        public var deadline: Duration = .seconds(10)
        public var maximumBodyBytes = 8 << 20
        /// The most pages a newer page follows before it stops.
        public var mostPages = 10

        public init() {}
    }

    let xrpc: XRPC
    let session: BlueskySession

    public init(
        configuration: BlueskyConfiguration, httpClient: HTTPClient = .shared, policy: Policy = Policy(),
        logger: Logger = Logger(label: "smashtag.bluesky")
    ) {
        xrpc = XRPC(configuration: configuration, client: httpClient, policy: policy, logger: logger)
        session = BlueskySession(xrpc: xrpc)
    }

    /// What the service's `RateLimit-*` headers last said.
    public var budget: RateLimitBudget? { xrpc.budget }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        guard xrpc.configuration.credentials != nil else { throw xrpc.error(.needsAppPassword) }
        let query = try SearchQuery(parsing: request.query)
        let searches: [BlueskySearch]
        do throws(BlueskyQueryError) {
            searches = try BlueskySearch.searches(for: query)
        } catch {
            throw xrpc.error(.unsupportedQuery(error.phrase))
        }
        let walks = try await withThrowingTaskGroup(of: SearchWalk.self) { group in
            for search in searches {
                group.addTask { try await self.walk(search, request: request) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return SearchWalk.page(of: walks, for: request)
    }

    private func walk(_ search: BlueskySearch, request: SearchRequest) async throws -> SearchWalk {
        var walk = SearchWalk(request: request)
        while let parameters = walk.nextParameters(search) {
            let answer = try await call("app.bsky.feed.searchPosts", parameters)
            walk.take(answer, service: xrpc.configuration.serviceName)
            if walk.pages >= xrpc.policy.mostPages { walk.stopAtPageLimit() }
        }
        return walk
    }

    /// A query with the session's token; renewed once when the service says the token expired.
    func call(_ method: String, _ parameters: [(String, String)]) async throws -> JSONValue {
        let token = try await session.token()
        do {
            return try await xrpc.query(method, parameters, token: token)
        } catch let failure as XRPCFailure where failure.isExpiredSession {
            let renewed = try await session.renew(replacing: token)
            do {
                return try await xrpc.query(method, parameters, token: renewed)
            } catch let failure as XRPCFailure {
                throw xrpc.error(
                    failure.isExpiredSession
                        ? .sessionRejected(failure.message ?? "the new session was refused too") : failure.reason)
            }
        } catch let failure as XRPCFailure {
            throw xrpc.error(failure.reason)
        }
    }
}
