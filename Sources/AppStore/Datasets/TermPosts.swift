import NIOPosix
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A post counted under a term, with when it was first counted (nil for posts counted before Smashtag kept it).
public struct CountedPost: Sendable, Hashable {
    public let post: Post
    public let counted: Date?
    /// Past the keeping time: only what keeps it counted is left (`Post.withheld`), and it is not exported.
    public let expired: Bool

    public init(post: Post, counted: Date?, expired: Bool = false) {
        (self.post, self.counted, self.expired) = (post, counted, expired)
    }
}

/// The posts counted under the terms in Recents, for datasets: read a batch at a time in the order the store first
/// kept them (its own references), so an export of a million posts holds one batch, and posts counted while it runs
/// come in later batches rather than shifting earlier ones.
public struct TermPosts: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The term as Recents shows it; nil when it is not in Recents. One short read: whether there is a dataset, and
    /// its name, known before a post is read.
    public func shown(_ term: String) async throws -> String? {
        try await database.store.recordedTerm(SearchTermKey(term).key, of: .owner, counting: [])?.shown
    }

    /// The term's posts dated in the window ending `now` (by their own times, as the counts are), in batches of
    /// `size`; nil when the term is not in Recents.
    public func batches(
        of term: String, window: TimeWindow = .all, now: Date = Date(), size: Int = 1_000
    ) async throws -> CountedPostBatches? {
        let key = try SearchTermKey(term)
        let read = CountedPostRead(term: key, window: window, now: now, size: size)
        guard let first = try await database.store.countedPosts(read, after: 0) else { return nil }
        return CountedPostBatches(store: database.store, read: read, first: first)
    }
}

/// What one dataset read asks the store for.
struct CountedPostRead: Sendable {
    let term: SearchTermKey
    let window: TimeWindow
    let now: Date
    let size: Int

    /// The earliest post time in the window: a dataset holds exactly the posts its popularity table counted.
    var earliest: Int64 { window.earliestCreated(at: now) }
}

/// A batch as the store reads it: the term as shown in Recents, the window's posts among the next references, and
/// where the next batch starts (nil when these were the last).
struct CountedPostBatch: Sendable {
    let term: String
    let posts: [CountedPost]
    let next: Int64?

    /// A counted post's row as both stores read it.
    struct Row: Sendable {
        let reference: Int64
        let counted: Int64?
        let created: Int64
        let json: String
        let expired: Bool
    }

    /// The batch, its posts decoded on NIO's thread pool: a thousand posts' JSON is tens of milliseconds that a
    /// cooperative thread would not spend serving pages, and a few downloads at once would take both.
    static func decoding(term: String, read: CountedPostRead, rows: [Row]) async throws -> CountedPostBatch {
        try await NIOThreadPool.singleton.runIfActive { try CountedPostBatch(term: term, read: read, rows: rows) }
    }

    /// The rows' posts in the window, decoded; a batch of fewer rows than asked for is the last.
    init(term: String, read: CountedPostRead, rows: [Row]) throws {
        self.term = term
        posts = try rows.filter { $0.created >= read.earliest }.map { row in
            CountedPost(
                post: try StorablePost.decode(row.json), counted: row.counted.map(Date.init(millisecondsSince1970:)),
                expired: row.expired)
        }
        next = rows.count == read.size ? rows.last?.reference : nil
    }
}

/// The batches of one term's posts. The next batch is read (and its posts decoded) while the one before is being
/// written: two at most are held.
public struct CountedPostBatches: AsyncSequence, Sendable {
    public typealias Element = [CountedPost]

    let store: any Store
    let read: CountedPostRead
    let first: CountedPostBatch

    /// The term as Recents shows it.
    public var term: String { first.term }

    public func makeAsyncIterator() -> Iterator {
        let first = first
        return Iterator(batches: self, pending: Task { first })
    }

    public struct Iterator: AsyncIteratorProtocol {
        let batches: CountedPostBatches
        var pending: Task<CountedPostBatch?, any Error>?

        /// The next batch with posts in it (a window may leave a batch's references without any).
        public mutating func next() async throws -> [CountedPost]? {
            while let batch = try await pending?.value {
                pending = batch.next.map { next in
                    Task { [store = batches.store, read = batches.read] in
                        try await store.countedPosts(read, after: next)
                    }
                }
                if !batch.posts.isEmpty { return batch.posts }
            }
            return nil
        }
    }
}
