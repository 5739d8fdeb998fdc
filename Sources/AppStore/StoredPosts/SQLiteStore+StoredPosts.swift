import GRDB
import Posts

/// The posts kept for pages that show them again: only those a term still counts.
extension SQLiteStore: StoredPostStore {
    func storedPost(_ key: PostKey) async throws -> Post? {
        let json = try await writer.read { db in
            // Counted: a pushed-out term's posts wait for `OrphanPosts` to delete them.
            try String.fetchOne(
                db,
                sql: """
                    SELECT json FROM post WHERE network = ? AND postID = ? AND EXISTS (SELECT 1 FROM countedPost c \
                    WHERE c.postRef = post.id)
                    """, arguments: [key.network.code, key.id])
        }
        return try json.map(StorablePost.decode)
    }

    func storedPosts(_ term: SearchTermKey, newest: Int64, oldest: Int64) async throws -> [Post] {
        try await writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT p.json FROM recent r JOIN countedPost c ON c.termID = r.id JOIN post p ON p.id = c.postRef
                    WHERE r.key = ? AND p.created BETWEEN ? AND ? ORDER BY p.created DESC, p.network, p.id DESC
                    """, arguments: [term.key, oldest, newest])
        }.map(StorablePost.decode)
    }

    func storedPostIDs() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT postID FROM post ORDER BY network, length(postID), postID")
        }
    }
}
