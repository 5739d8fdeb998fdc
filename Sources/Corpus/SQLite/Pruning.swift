import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A live index keeps the days it is told to: older posts leave the corpus and every index, a few hundred per
/// transaction so the stream's commits go on between them.
extension SQLiteCorpus {
    /// Removes up to `limit` of the network's posts made before `date`, oldest first; how many. Posts are found by
    /// their order key, which is their time.
    public func prune(_ network: Network, before date: Date, limit: Int) async throws -> Int {
        try await writer.write { db in
            let keys = try Int64.fetchAll(
                db, sql: "SELECT id FROM post WHERE id < ? AND network = ? ORDER BY id LIMIT ?",
                arguments: [OrderKey.first(at: date), network.code, limit])
            var writer = PostWriter(db: db)
            return try writer.remove(keys: keys)
        }
    }

    public func recheckCandidates(
        _ network: Network, after key: Int64, checkedBefore: Int64, limit: Int
    ) async throws -> [CorpusPostRef] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, postID FROM post WHERE id > ? AND network = ? AND coalesce(checked, 0) < ?
                    ORDER BY id LIMIT ?
                    """, arguments: [key, network.code, checkedBefore, limit]
            ).map { row in
                let key: Int64 = row["id"]
                return CorpusPostRef(key: key, post: PostKey(network: network, id: row["postID"] ?? String(key)))
            }
        }
    }

    public func markChecked(_ posts: [PostKey], at time: Int64) async throws {
        guard !posts.isEmpty else { return }
        try await writer.write { db in
            let update = try db.cachedStatement(sql: "UPDATE post SET checked = ? WHERE id = ?")
            for key in try Self.orderKeys(of: posts, db).values { try update.execute(arguments: [time, key]) }
        }
    }

    public func checked(_ posts: [PostKey], since: Int64) async throws -> Set<PostKey> {
        guard !posts.isEmpty else { return [] }
        return try await writer.read { db in
            let checked = try db.cachedStatement(sql: "SELECT checked >= ? FROM post WHERE id = ?")
            return Set(
                try Self.orderKeys(of: posts, db).filter { _, key in
                    try Bool.fetchOne(checked, arguments: [since, key]) == true
                }.keys)
        }
    }

    /// The order keys of the posts the corpus holds: an X post's id is its key, another network's is looked up.
    private static func orderKeys(of posts: [PostKey], _ db: Database) throws -> [PostKey: Int64] {
        let other = try db.cachedStatement(sql: "SELECT id FROM post WHERE network = ? AND postID = ?")
        var keys: [PostKey: Int64] = [:]
        for post in posts {
            keys[post] =
                post.network == .twitter
                ? Int64(post.id) : try Int64.fetchOne(other, arguments: [post.network.code, post.id])
        }
        return keys
    }

    /// The corpus file's size in bytes, free pages included (SQLite reuses them before it grows the file).
    public func bytesOnDisk() async throws -> Int64 {
        try await writer.read { db in
            let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            return pages * (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        }
    }
}
