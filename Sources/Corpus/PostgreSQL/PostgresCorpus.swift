import Logging
import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The post corpus in PostgreSQL, in the database the app store uses, so every server sharing it searches the same
/// posts: what one imports or the elected live index stores, every other finds at its next search (pages are not
/// kept, since another server may write at any time). See `PostgresCorpusSchema` for the design.
public struct PostgresCorpus: LiveIndexCorpus {
    let pool: PostgresPool
    private let terms = TermIDs()

    /// The corpus in the pool's database, its tables made or brought up to date first.
    package static func open(in pool: PostgresPool) async throws -> PostgresCorpus {
        try await PostgresPool.migrate(pool.url, [PostgresCorpusSchema.migrator], logger: pool.logger)
        return PostgresCorpus(pool: pool)
    }

    public func add(_ posts: [Post]) async throws -> AddedPosts {
        try await write { writer in
            var added = AddedPosts()
            for (post, outcome) in zip(posts, try await writer.insert(posts)) { added.count(outcome, for: post) }
            return added
        }
    }

    public func apply(_ changes: [StreamChange], cursor: (key: String, value: String)) async throws -> AppliedChanges {
        try await write { writer in
            var applied = AppliedChanges()
            var creates: [Post] = []
            for change in changes {
                if case .create(let post) = change {
                    creates.append(post)
                    continue
                }
                for outcome in try await writer.insert(creates) { applied.count(outcome) }
                creates = []
                switch change {
                case .create: break
                case .delete(let id): applied.deleted += try await writer.remove(ids: [id])
                case .identity(let did): try await writer.reresolve(did: did)
                case .removeAccount(let did): applied.deleted += try await writer.removeAccount(did: did)
                }
            }
            for outcome in try await writer.insert(creates) { applied.count(outcome) }
            try await writer.connection.run(Self.setInfo(cursor.key, cursor.value))
            return applied
        }
    }

    @discardableResult
    public func delete(ids: [String]) async throws -> Int {
        try await write { writer in try await writer.remove(ids: ids) }
    }

    public func search(_ query: SearchQuery, _ position: SearchRequest.Position, count: Int) async throws -> CorpusPage
    {
        try CorpusQueryError.check(query)
        let plan = PostgresQueryPlan(query)
        let found = try await pool.read { [terms] connection in
            var ids = terms.session()
            try await ids.find(plan.keys, on: connection)
            let range = try await PostgresPageRange(position, connection)
            let statement = plan.page(
                ids: { ids[$0] }, direction: range.direction, bound: range.bound, limit: count + 1)
            guard let statement else { return ([Post](), ids) }
            return (try await connection.rows(statement).map(PostgresPostLoader.post), ids)
        }
        terms.remember(found.1)
        var posts = found.0
        let hasMore = posts.count > count
        posts = Array(posts.prefix(count))
        if case .newer = position { posts.reverse() }
        return CorpusPage(posts: posts, hasMore: hasMore)
    }

    /// Two: each batch on a connection, a server process and a core of its own, while this process decodes the next.
    public var concurrentWrites: Int { 3 }

    /// Another server may write at any moment: pages are read afresh.
    public func pageGeneration() throws -> CorpusGeneration? { nil }

    public func post(id: String) async throws -> Post? {
        try await pool.read { connection in
            guard let key = try await PostgresPageRange.key(of: id, connection) else { return nil }
            return try await connection.rows("\(unescaped: PostgresPostLoader.select) WHERE p.key = \(key)")
                .first.map(PostgresPostLoader.post)
        }
    }

    public func postCount() async throws -> Int {
        try await pool.read { connection in
            try await connection.value("SELECT count(*) AS n FROM corpus_post", "n", as: Int.self) ?? 0
        }
    }

    public func info(_ key: String) async throws -> String? {
        try await pool.read { connection in
            try await connection.value("SELECT value FROM corpus_info WHERE key = \(key)", "value")
        }
    }

    public func setInfo(_ key: String, _ value: String) async throws {
        try await pool.transaction { connection in try await connection.run(Self.setInfo(key, value)) }
    }

    private static func setInfo(_ key: String, _ value: String) -> PostgresQuery {
        """
        INSERT INTO corpus_info (key, value) VALUES (\(key), \(value))
        ON CONFLICT (key) DO UPDATE SET value = \(value)
        """
    }

    public func pendingAuthors(limit: Int) async throws -> [String] {
        try await pool.read { connection in
            try await connection.rows("SELECT handle FROM corpus_author WHERE pending ORDER BY id LIMIT \(limit)")
                .map { try $0["handle"].decode(String.self) }
        }
    }

    public func store(profiles: [AccountProfile], unknown: [String]) async throws {
        try await write { writer in
            for profile in profiles { try await writer.store(profile) }
            let dids = unknown.map { $0.lowercased() }
            try await writer.connection.run(
                "UPDATE corpus_author SET pending = false WHERE lower(handle) = ANY(\(dids))")
        }
    }

    public func prune(_ network: Network, before date: Date, limit: Int) async throws -> Int {
        try await write { writer in
            let keys = try await writer.connection.rows(
                """
                SELECT key FROM corpus_post WHERE key < \(OrderKey.first(at: date)) AND network = \(Int16(network.code))
                ORDER BY key LIMIT \(limit)
                """
            ).map(PostgresPostLoader.key)
            return try await writer.remove(keys: keys)
        }
    }

    public func recheckCandidates(
        _ network: Network, after key: Int64, checkedBefore: Int64, limit: Int
    ) async throws -> [CorpusPostRef] {
        try await pool.read { connection in
            try await connection.rows(
                """
                SELECT key, post_id FROM corpus_post
                WHERE key > \(key) AND network = \(Int16(network.code)) AND coalesce(checked, 0) < \(checkedBefore)
                ORDER BY key LIMIT \(limit)
                """
            ).map { row in
                let key = try row["key"].decode(Int64.self)
                let id = try row["post_id"].decode(String?.self) ?? String(key)
                return CorpusPostRef(key: key, post: PostKey(network: network, id: id))
            }
        }
    }

    public func markChecked(_ posts: [PostKey], at time: Int64) async throws {
        guard !posts.isEmpty else { return }
        let (x, others) = CorpusPostKeys.split(posts)
        try await write { writer in
            try await writer.connection.run(
                """
                UPDATE corpus_post SET checked = \(time)
                WHERE (network = 0 AND key = ANY(\(x))) OR key IN (
                    SELECT p.key FROM unnest(\(others.networks)::smallint[], \(others.ids)::text[]) AS k (n, i)
                    JOIN corpus_post p ON p.post_id = k.i AND p.network = k.n)
                """)
        }
    }

    public func checked(_ posts: [PostKey], since: Int64) async throws -> Set<PostKey> {
        guard !posts.isEmpty else { return [] }
        let (x, others) = CorpusPostKeys.split(posts)
        let rows = try await pool.read { connection in
            try await connection.rows(
                """
                SELECT network, coalesce(post_id, key::text) AS id FROM corpus_post
                WHERE checked >= \(since) AND ((network = 0 AND key = ANY(\(x))) OR key IN (
                    SELECT p.key FROM unnest(\(others.networks)::smallint[], \(others.ids)::text[]) AS k (n, i)
                    JOIN corpus_post p ON p.post_id = k.i AND p.network = k.n))
                """
            ).map { row in (try row["network"].decode(Int16.self), try row["id"].decode(String.self)) }
        }
        return Set(rows.compactMap { code, id in Network(code: Int(code)).map { PostKey(network: $0, id: id) } })
    }

    /// The corpus's tables and their indexes.
    public func bytesOnDisk() async throws -> Int64 {
        try await pool.read { connection in
            try await connection.value(
                """
                SELECT sum(pg_total_relation_size(t::regclass))::bigint AS bytes
                FROM unnest(ARRAY['corpus_post', 'corpus_posting', 'corpus_term', 'corpus_author']) t
                """, "bytes", as: Int64.self) ?? 0
        }
    }

    /// Servers starting together on an empty corpus: the first fills it, the others wait and then find it full.
    public func alone<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await pool.client.withConnection { connection in
            try await AdvisoryLock.demoFill.lock(on: connection)
            do {
                let value = try await work()
                try await AdvisoryLock.demoFill.unlock(on: connection)
                return value
            } catch {
                try? await AdvisoryLock.demoFill.unlock(on: connection)
                throw error
            }
        }
    }

    /// One transaction through a writer; the terms it named are remembered once it has committed. Writes are
    /// batches no page waits for (an import's, the demo's, the live index's): they wait for a busy database.
    private func write<T: Sendable>(
        _ work: @escaping @Sendable (inout PostgresPostWriter) async throws -> T
    )
        async throws -> T
    {
        let (value, session) = try await pool.transaction(limit: PostgresPool.batchDeadline) { [terms] connection in
            var writer = PostgresPostWriter(connection: connection, terms: terms.session())
            let value = try await work(&writer)
            return (value, writer.terms)
        }
        terms.remember(session)
        return value
    }
}

/// Where a page starts: a bound on the order key, inclusive, and the direction of the walk.
struct PostgresPageRange {
    let direction: WalkDirection
    let bound: Int64

    init(_ position: SearchRequest.Position, _ connection: PostgresConnection) async throws {
        switch position {
        case .newest: (direction, bound) = (.newestFirst, .max)
        case .newer(let id): (direction, bound) = (.oldestFirst, try await Self.pageKey(id, connection) + 1)
        case .older(let id, _): (direction, bound) = (.newestFirst, try await Self.pageKey(id, connection) - 1)
        }
    }

    private static func pageKey(_ id: String, _ connection: PostgresConnection) async throws -> Int64 {
        guard let key = try await key(of: id, connection), key >= 0, key < .max else {
            throw CorpusError.badPagingID(id)
        }
        return key
    }

    /// A post's order key from the id a page or a link gives (see `OrderKeys`).
    static func key(of id: String, _ connection: PostgresConnection) async throws -> Int64? {
        let other = try await connection.value(
            "SELECT key FROM corpus_post WHERE post_id = \(id) AND network <> 0", "key", as: Int64.self)
        return other ?? Int64(id)
    }
}

/// Posts named by key, as PostgreSQL finds them: an X post by its key (its id), another by its network and id.
private enum CorpusPostKeys {
    static func split(_ posts: [PostKey]) -> (x: [Int64], others: (networks: [Int16], ids: [String])) {
        let others = posts.filter { $0.network != .twitter }
        return (
            posts.filter { $0.network == .twitter }.compactMap { Int64($0.id) },
            (others.map { Int16($0.network.code) }, others.map(\.id))
        )
    }
}
