/// A network asked which of its posts are still published, for rechecking the posts kept (deletions honoured): by id,
/// a batch at a time, within the network's rate-limit budget.
public protocol PostLookup: Sendable {
    /// The network whose post ids it takes.
    var network: Network { get }
    /// The most ids one request asks about (Bluesky's `getPosts` 25, X's lookup 100, Mastodon one).
    var lookupBatch: Int { get }
    /// What the network's rate-limit headers last said; a recheck waits while it is spent.
    var budget: RateLimitBudget? { get }
    /// Of `ids`, those the network says no longer exist: deleted, or gone with their account. Throws, saying why, when
    /// it cannot tell — an unreachable server, a rate limit, a web page or a 5xx where the API should answer: never a
    /// deletion. An id it is not asked about (a repost's own record) is left as it is.
    func gone(among ids: [String]) async throws -> Set<String>
}
