import GRDB
import Posts

/// What a recheck asks of the SQLite corpus: its posts network by network in key order, and when each was last found
/// still published (`post.checked`, v11).
extension SQLiteCorpus {
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
}
