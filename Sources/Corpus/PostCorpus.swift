import Posts
import SQLiteSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The post corpus: posts of every network, indexed for the whole query language, searched newest first. Two
/// implementations answer every query the same way: `SQLiteCorpus`, a file in the data directory (the embedded
/// default), and `PostgresCorpus`, which several servers share.
public protocol PostCorpus: Sendable {
    /// Adds posts in one transaction; a post already in the corpus is left as it is.
    func add(_ posts: [Post]) async throws -> AddedPosts

    /// Removes posts (by their ids: an X id or a Bluesky URI) from the corpus and from every index, in one
    /// transaction; ids the corpus does not hold are passed over. How many were removed.
    @discardableResult
    func delete(ids: [String]) async throws -> Int

    /// A page of the posts matching `query`, newest first.
    func search(_ query: SearchQuery, _ position: SearchRequest.Position, count: Int) async throws -> CorpusPage

    /// What a page read now is valid for: the same value later means nothing changed. Nil when the corpus cannot
    /// know (another server may write at any time), so pages are not kept.
    func pageGeneration() throws -> CorpusGeneration?

    /// The post with this id, if the corpus has it.
    func post(id: String) async throws -> Post?

    /// The replies the corpus holds to each of `parents`, oldest first: up to `limit` each (none for 0: the counts
    /// alone), after the reply `after` when it names one (a thread's next page), each with how many there are from
    /// there on. Parents with no replies are left out.
    func replies(to parents: [PostKey], after: String?, limit: Int) async throws -> [PostKey: CorpusReplies]

    func postCount() async throws -> Int

    /// A note the corpus keeps about itself (e.g. the demo's seed, a live index's cursor).
    func info(_ key: String) async throws -> String?

    func setInfo(_ key: String, _ value: String) async throws

    /// `work` while no other process sharing the corpus runs its own (the demo filling an empty corpus once).
    func alone<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T

    /// How many batches are worth writing at once: one where there is one writer (SQLite), more where the database
    /// writes each on a connection and a core of its own.
    var concurrentWrites: Int { get }

    /// Adds batches as `next` produces them (an empty batch ends), each in its own transaction, the next batch made
    /// while the last is written; `written` hears each result, in the batches' order. What an import runs.
    func add(batches next: () throws -> [Post], written: (AddedPosts) throws -> Void) async throws

    /// Changes, in the order they came, and where their stream stood after them: one transaction, so a stream (the
    /// live index's firehose, a corpus copy) resumed from the saved cursor after a crash or a kill replays only what
    /// was not committed (and what it replays again is stored once: a post is unique by its network and id).
    func apply(_ changes: [StreamChange], cursor: (key: String, value: String)) async throws -> AppliedChanges

    /// Up to `limit` of the network's posts after the order key `after`, in key order, that no recheck found still
    /// published since `checkedBefore` (milliseconds since 1970): what `smashtag corpus recheck` asks about.
    func recheckCandidates(
        _ network: Network, after key: Int64, checkedBefore: Int64, limit: Int
    ) async throws -> [CorpusPostRef]

    /// The posts were found still published at `time` (milliseconds since 1970); those the corpus does not hold are
    /// passed over.
    func markChecked(_ posts: [PostKey], at time: Int64) async throws

    /// Which of the posts a recheck found still published at `since` or later: not to be asked about again.
    func checked(_ posts: [PostKey], since: Int64) async throws -> Set<PostKey>
}

/// What only a live index asks of a corpus (`LiveIndex`): the authors still to resolve and their profiles,
/// retention, the space the corpus takes. Both corpora are one.
public protocol LiveIndexCorpus: PostCorpus {
    /// Up to `limit` DIDs still to resolve, the longest waiting first.
    func pendingAuthors(limit: Int) async throws -> [String]

    /// Stores the profiles found, in one transaction; DIDs the directory does not know (a deleted or suspended
    /// account) stay shown as DIDs and are no longer pending.
    func store(profiles: [AccountProfile], unknown: [String]) async throws

    /// Removes up to `limit` of the network's posts made before `date`, oldest first; how many.
    func prune(_ network: Network, before date: Date, limit: Int) async throws -> Int

    /// The space the corpus takes, in bytes.
    func bytesOnDisk() async throws -> Int64
}

/// A corpus post as a recheck walks them: its order key and its identity.
public struct CorpusPostRef: Sendable, Hashable {
    public let key: Int64
    public let post: PostKey
}

/// A state of the corpus that pages read in it are valid for.
public struct CorpusGeneration: Hashable, Sendable {
    let value: DatabaseGeneration.Value
}

/// The notes a corpus keeps about itself (`PostCorpus.info`).
public enum CorpusNote {
    /// A live index's: such a corpus is never filled with the demo, even while empty.
    public static let liveIndex = "live index"
    /// The demo's seed, so the live tweeter writes as the same users.
    public static let demoSeed = "demo.seed"
}

extension PostCorpus {
    /// Empty and not a live index's: the first search or server start fills it with the demo corpus.
    public func needsDemo() async throws -> Bool {
        guard try await postCount() == 0 else { return false }
        return try await info(CorpusNote.liveIndex) == nil
    }

    /// Adds batches as `next` produces them (an empty batch ends), each in its own transaction; while batches are
    /// written (`concurrentWrites` at most) the next is produced, so decoding or generating overlaps the writing.
    /// `written` hears each result, in the batches' order.
    public func add(batches next: () throws -> [Post], written: (AddedPosts) throws -> Void) async throws {
        try await pipeline(
            next: {
                let batch = try next()
                return batch.isEmpty ? nil : batch
            }, write: { try await add($0) }, written: written)
    }

    /// The loop under `add(batches:written:)`: `next` makes a batch (nil at the end) while up to `concurrentWrites`
    /// batches are written by `write`.
    func pipeline<Batch: Sendable>(
        next: () throws -> Batch?, write: @escaping @Sendable (Batch) async throws -> AddedPosts,
        written: (AddedPosts) throws -> Void
    ) async throws {
        var writing: [Task<AddedPosts, any Error>] = []
        while true {
            let batch = try next()
            if batch == nil || writing.count >= concurrentWrites, !writing.isEmpty {
                try written(try await writing.removeFirst().value)
            }
            guard let batch else {
                for task in writing { try written(try await task.value) }
                return
            }
            writing.append(Task { try await write(batch) })
        }
    }
}

/// One change of a live stream.
public enum StreamChange: Sendable {
    case create(Post)
    /// A post's id: an X id or a Bluesky URI.
    case delete(String)
    /// An account's identity changed (its DID): its profile is resolved again.
    case identity(String)
    /// An account deleted, taken down or suspended (its DID): its posts go.
    case removeAccount(String)
}

/// What applying a stream's changes did.
public struct AppliedChanges: Sendable, Hashable {
    public internal(set) var inserted = 0
    /// Already stored (a replayed create).
    public internal(set) var duplicates = 0
    public internal(set) var deleted = 0

    mutating func count(_ outcome: PostWriter.Outcome) {
        switch outcome {
        case .inserted: inserted += 1
        case .duplicate, .badID: duplicates += 1
        }
    }
}

/// What adding posts did.
public struct AddedPosts: Sendable, Hashable {
    public private(set) var inserted = 0
    /// Already in the corpus.
    public private(set) var duplicates = 0
    /// Tweets the corpus cannot hold (an id `TweetID` refuses), with why.
    public private(set) var rejected: [String] = []

    mutating func count(_ outcome: PostWriter.Outcome, for post: Post) {
        switch outcome {
        case .inserted: inserted += 1
        case .duplicate: duplicates += 1
        case .badID:
            rejected.append(TweetID.problem(with: post.id) ?? "the tweet id “\(post.id.excerpt())” cannot be stored")
        }
    }
}

/// A page from the corpus, newest first.
public struct CorpusPage: Sendable {
    public let posts: [Post]
    /// More posts lie beyond the page in the direction it was read.
    public let hasMore: Bool
}

/// Something the corpus could not do, as one sentence.
public enum CorpusError: Error, MistakenRequest {
    case badPagingID(String)

    public var description: String {
        switch self {
        case .badPagingID(let id): "“\(id)” is not the id of a post to page from."
        }
    }
}
