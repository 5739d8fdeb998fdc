import Posts

/// Posts taken back out of the store (a deletion found by a recheck, an author forgotten, posts past their keeping
/// time): from every term that counted them, each term's counts, trends and co-mentions down by exactly what the post
/// added, and the post itself, in one transaction. And which stored posts are due for a recheck.
protocol RemovalStore: Sendable {
    /// Removes the posts of `keys` the store holds, `size` in a transaction; those it does not hold are passed over.
    /// With `term` (its key), they leave that term's counts only, and a post is deleted once no term counts it.
    func remove(_ keys: [PostKey], from term: String?, inTransactionsOf size: Int) async throws -> RemovedPosts

    /// Up to `limit` stored posts of `network` after the reference `after`, in the order they were stored, that no
    /// recheck has looked at since `checkedBefore` (milliseconds since 1970).
    func recheckCandidates(
        _ network: Network, after reference: Int64, checkedBefore: Int64, limit: Int
    ) async throws -> [KeptPost]

    /// Up to `limit` kept posts after the reference `after`, in the order they were stored, made before
    /// `createdBefore` (milliseconds since 1970): those past the keeping time; with `reducedToo`, those already
    /// reduced to their counts as well.
    func retentionCandidates(
        createdBefore: Int64, after reference: Int64, limit: Int, reducedToo: Bool
    ) async throws -> [KeptPost]

    /// Up to `limit` whole posts counted under the term `key` after the reference `after`, in the order they were
    /// stored, made before `createdBefore` (milliseconds since 1970) and kept by no other term: every other term that
    /// counted one is tracked with a keeping time it has passed too at `now` (a term without one keeps its posts).
    /// With `forgetting` (the term's counts go too): every post of the term made before then, reduced or not, whatever
    /// other terms keep.
    func termRetentionCandidates(
        _ key: String, createdBefore: Int64, now: Int64, after reference: Int64, limit: Int, forgetting: Bool
    ) async throws -> [KeptPost]

    /// The posts of `keys` still whole reduced to what keeps them counted (`Post.withheld`: key, time and what they
    /// named), marked expired at `time`; how many.
    func reduce(_ keys: [PostKey], at time: Int64) async throws -> Int

    /// The posts were found still published at `time` (milliseconds since 1970).
    func markChecked(_ keys: [PostKey], at time: Int64) async throws

    /// The kept Bluesky posts of the account `did`: their `at://DID/` URIs name it.
    func storedKeys(ofAccount did: String) async throws -> [PostKey]

    /// The stored posts whose author has `handle` (as the post names them, case-insensitively).
    func storedKeys(byAuthor handle: String) async throws -> [PostKey]

    /// The term's counted posts: how many, how many a recheck has looked at, and the oldest such check.
    func recheckState(_ term: SearchTermKey) async throws -> RecheckState?
}

/// Posts removed in one transaction: on SQLite about a tenth of a second of the writer, which searches wait for; on
/// PostgreSQL a read of the term's pairs for the strongest partners of the mentions that lost one.
let removalBatch = 2_000

/// What a removal took away.
public struct RemovedPosts: Sendable, Equatable {
    /// Posts taken out of the counts (of every term that counted them, or of the one term named); each is deleted
    /// once no term counts it.
    public var posts = 0
    /// The terms whose counts went down, by key.
    public var terms: Set<String> = []

    public init() {}

    mutating func add(_ other: RemovedPosts) {
        posts += other.posts
        terms.formUnion(other.terms)
    }
}

/// A kept post, as rechecks and retention walk them.
public struct KeptPost: Sendable, Equatable {
    /// The store's own reference: rechecks and retention go through the posts in this order.
    public let reference: Int64
    public let key: PostKey
}

/// How far a term's posts have been rechecked, for a dataset's provenance.
public struct RecheckState: Sendable, Equatable {
    public let posts: Int
    public let checked: Int
    /// The oldest recheck among those checked (milliseconds since 1970); nil when none was.
    public let oldestCheck: Int64?
}

/// What the removed posts had added under each term: each counted post's tally, made by the counting's own rule
/// (`MentionTally`), from the post as the store keeps it. Withheld posts keep what they named for exactly this.
struct UncountedTally {
    struct Term {
        let key: String
        var posts: [Post] = []
    }

    private(set) var terms: [Int64: Term] = [:]

    /// One stored post's row, with a term that counted it (nil when none does).
    mutating func add(term: Int64?, key: String?, json: String) throws {
        guard let term, let key else { return }
        terms[term, default: Term(key: key)].posts.append(try StorablePost.decode(json))
    }

    /// Each term's tally of its removed posts.
    var tallies: [(term: Int64, key: String, tally: MentionTally)] {
        terms.sorted { $0.key < $1.key }.map { ($0.key, $0.value.key, MentionTally($0.value.posts)) }
    }
}
