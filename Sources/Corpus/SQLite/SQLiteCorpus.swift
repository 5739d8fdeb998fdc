import GRDB
import Posts
import SQLiteSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The post corpus in an SQLite database of posts, their authors, mentions and images, indexed so that every search
/// operator is an index look-up: the embedded default.
public struct SQLiteCorpus: LiveIndexCorpus {
    let writer: any DatabaseWriter
    /// Changes with every commit to the corpus, from this process or another: what cached pages are valid for.
    let generation: DatabaseGeneration
    private let cache = PostCache()
    /// The authors the writes have met, from one transaction to the next.
    private let memory = WriterMemory()
    private let merges = SegmentMerges()
    /// Searches' reads on the calling thread when short; none for a corpus in memory.
    private let inline: InlineReaders?

    /// Opens (creating if needed) the corpus in the file at `path`, in WAL mode so searches go on during imports.
    public static func open(at path: String) async throws -> SQLiteCorpus {
        try await SQLiteFile.offThePool { try SQLiteCorpus(writer: SQLiteFile.pool(at: path), path: path) }
    }

    /// A corpus in memory, gone when the value is.
    public static func inMemory() throws -> SQLiteCorpus {
        try SQLiteCorpus(writer: DatabaseQueue(), path: nil)
    }

    private init(writer: any DatabaseWriter, path: String?) throws {
        self.writer = writer
        try SQLiteCorpusSchema.announceReindexing(writer)
        try SQLiteCorpusSchema.migrator.migrate(writer)
        generation = try DatabaseGeneration(writer: writer, path: path)
        // One per thread of the cooperative pool (one per core), up to eight: each keeps a page cache of its own.
        inline = try path.map { try InlineReaders(path: $0) }
    }

    public func add(_ posts: [Post]) async throws -> AddedPosts {
        try await add(posts.map(PostRecord.init))
    }

    /// As every corpus does, but each batch's records (`PostRecord`: the search index's row made) are made where the
    /// batch was read, beside the write of the one before: the writer's thread, which an import waits for, only writes.
    ///
    /// After many posts, the search index is merged into one segment (`optimize`): each commit leaves a segment of
    /// its own, merged by FTS5 only level by level, and a token is looked up in every segment — at 10,000,000
    /// posts a word's first page read some twenty segments and took milliseconds where one takes a tenth of one.
    public func add(batches next: () throws -> [Post], written: (AddedPosts) throws -> Void) async throws {
        var inserted = 0
        try await pipeline(
            next: {
                let batch = try next()
                return batch.isEmpty ? nil : batch.map(PostRecord.init)
            }, write: { try await add($0) },
            written: { added in
                inserted += added.inserted
                try written(added)
            })
        if inserted >= Self.mergeAfter { try await mergeSearchIndex() }
    }

    /// Posts an import adds before its search index is merged whole.
    static let mergeAfter = 100_000

    /// The search index as one segment.
    func mergeSearchIndex() async throws {
        try await writer.write { db in
            try db.execute(sql: "INSERT INTO searchIndex(searchIndex) VALUES ('optimize')")
        }
    }

    func add(_ records: [PostRecord]) async throws -> AddedPosts {
        try await write { writer in
            var added = AddedPosts()
            for (record, outcome) in zip(records, try writer.insert(records)) { added.count(outcome, for: record.post) }
            return added
        }
    }

    /// `body` in a write transaction, with a writer that starts from the authors met before.
    func write<T: Sendable>(_ body: @escaping @Sendable (inout PostWriter) throws -> T) async throws -> T {
        try await writer.write { [memory, merges] db in
            var writer = PostWriter(db: db, known: try memory.known(in: db))
            let result = try body(&writer)
            try merges.wrote(db)
            memory.keep(writer.known, after: db)
            return result
        }
    }

    /// Runs of creates are written as a batch, their records made before the transaction (as an import's are);
    /// deletions and identity changes keep their places between them.
    public func apply(_ changes: [StreamChange], cursor: (key: String, value: String)) async throws -> AppliedChanges {
        let records = changes.map { change -> PostRecord? in
            if case .create(let post) = change { PostRecord(post) } else { nil }
        }
        return try await write { writer in
            let db = writer.db
            var applied = AppliedChanges()
            var creates: [PostRecord] = []
            for (change, record) in zip(changes, records) {
                if let record {
                    creates.append(record)
                    continue
                }
                for outcome in try writer.insert(creates) { applied.count(outcome) }
                creates = []
                switch change {
                case .create: break
                case .delete(let id): applied.deleted += try writer.remove(id: id) ? 1 : 0
                case .identity(let did): try writer.reresolve(did: did)
                case .removeAccount(let did): applied.deleted += try writer.removeAccount(did: did)
                }
            }
            for outcome in try writer.insert(creates) { applied.count(outcome) }
            try db.execute(
                sql: "INSERT OR REPLACE INTO info(key, value) VALUES (?, ?)", arguments: [cursor.key, cursor.value])
            return applied
        }
    }

    @discardableResult
    public func delete(ids: [String]) async throws -> Int {
        try await writer.write { db in
            var writer = PostWriter(db: db)
            return try writer.remove(keys: ids.compactMap { try OrderKeys.key(of: $0, db) })
        }
    }

    public func search(_ query: SearchQuery, _ position: SearchRequest.Position, count: Int) async throws -> CorpusPage
    {
        try CorpusQueryError.check(query)
        return try await search(query, position, count: count, at: generation.current())
    }

    public func pageGeneration() throws -> CorpusGeneration? {
        CorpusGeneration(value: try generation.current())
    }

    /// SQLite has one writer at a time.
    public var concurrentWrites: Int { 1 }

    /// One process writes an SQLite corpus's demo: the one that opened it first.
    public func alone<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await work()
    }

    /// As above, for a caller that has read the generation already.
    func search(
        _ query: SearchQuery, _ position: SearchRequest.Position, count: Int, at generation: DatabaseGeneration.Value
    ) async throws -> CorpusPage {
        try await read { db in
            let range = try PageRange(position, db)
            let matcher = try QueryMatcher(db: db, query: query, direction: range.direction)
            var ids = try matcher.ids(from: range.bound, count: count + 1)
            let hasMore = ids.count > count
            ids = Array(ids.prefix(count))
            if range.direction == .oldestFirst { ids.reverse() }
            return CorpusPage(posts: try posts(ids, in: db, at: generation), hasMore: hasMore)
        }
    }

    public func post(id: String) async throws -> Post? {
        let generation = try self.generation.current()
        return try await read { db in
            guard let key = try OrderKeys.key(of: id, db) else { return nil }
            return try posts([key], in: db, at: generation).first
        }
    }

    /// A search's read: on this thread when it is short (`InlineReaders`), else on the pool's readers.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await InlineReaders.read(inline, else: writer, body)
    }

    /// The posts of `ids` in that order, loaded only where the cache does not have them.
    func posts(_ ids: [Int64], in db: Database, at generation: DatabaseGeneration.Value) throws -> [Post] {
        var found = cache.posts(ids, at: generation)
        let missing = ids.filter { found[$0] == nil }
        if !missing.isEmpty {
            let loaded = try PostLoader(db: db).posts(missing)
            cache.store(loaded, at: generation)
            found.merge(loaded) { cached, _ in cached }
        }
        return ids.compactMap { found[$0] }
    }

    /// A copy of the whole corpus, as of now, in a new file at `path` (nothing may be there).
    package func copy(to path: String) async throws {
        try await writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    }

    public func postCount() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM post") ?? 0 }
    }

    public func info(_ key: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM info WHERE key = ?", arguments: [key])
        }
    }

    public func setInfo(_ key: String, _ value: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO info(key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }
}

/// Where a page starts: a bound on the order key, inclusive, and the direction of the walk.
private struct PageRange {
    let direction: WalkDirection
    let bound: Int64

    init(_ position: SearchRequest.Position, _ db: Database) throws {
        switch position {
        case .newest: (direction, bound) = (.newestFirst, .max)
        case .newer(let id): (direction, bound) = (.oldestFirst, try Self.key(id, db) + 1)
        case .older(let id, _): (direction, bound) = (.newestFirst, try Self.key(id, db) - 1)
        }
    }

    private static func key(_ text: String, _ db: Database) throws -> Int64 {
        guard let key = try OrderKeys.key(of: text, db), key >= 0, key < .max else {
            throw CorpusError.badPagingID(text)
        }
        return key
    }
}

/// A post's place in the corpus's order from the id a page or a link gives: an X id is its own key; another
/// network's id (a Bluesky `at://` URI, a Mastodon id) is looked up.
enum OrderKeys {
    static func key(of id: String, _ db: Database) throws -> Int64? {
        // Mastodon's ids are digits, as X's are: the look-up comes first, or a page after a Mastodon post would start
        // wherever its id fell among X's.
        let other = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM post WHERE network IN \(otherNetworks) AND postID = ?"),
            arguments: [id])
        return other ?? Int64(id)
    }

    /// `(1, 2)`: the codes of every network but X, whose posts have no `postID`.
    private static let otherNetworks =
        "(" + Network.allCases.filter { $0 != .twitter }.map { String($0.code) }.joined(separator: ", ") + ")"
}

extension SQLiteCorpus {
    /// Up to `count` posts after the order key `key` (from the start when nil), in key order, and the last one's key:
    /// a walk through the whole corpus that can stop and resume anywhere (`CorpusCopy`).
    package func posts(after key: Int64?, count: Int) async throws -> (posts: [Post], last: Int64?) {
        try await writer.read { db in
            let keys = try Int64.fetchAll(
                db, sql: "SELECT id FROM post WHERE id > ? ORDER BY id LIMIT ?", arguments: [key ?? -1, count])
            let posts = try PostLoader(db: db).posts(keys)
            return (keys.compactMap { posts[$0] }, keys.last)
        }
    }

    /// Every note the corpus keeps about itself.
    package func notes() async throws -> [String: String] {
        try await writer.read { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT key, value FROM info").map { ($0["key"], $0["value"]) },
                uniquingKeysWith: { first, _ in first })
        }
    }
}

extension SQLiteCorpus {
    /// How many posts have an order key up to `key`.
    package func postCount(upTo key: Int64) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM post WHERE id <= ?", arguments: [key]) ?? 0
        }
    }
}
