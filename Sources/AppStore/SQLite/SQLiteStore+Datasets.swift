import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts counted under a term, a batch at a time, for datasets.
extension SQLiteStore {
    /// A range of `countedPost`'s key (term, reference) and a seek per post; the JSON is decoded after the read, off
    /// the reader.
    func countedPosts(_ read: CountedPostRead, after reference: Int64) async throws -> CountedPostBatch? {
        let rows = try await writer.read { db -> (String, [Row])? in
            guard let (termID, shown) = try Self.recent(read.term, db) else { return nil }
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT c.postRef, c.counted, p.json FROM countedPost c JOIN post p ON p.id = c.postRef
                        WHERE c.termID = ? AND c.postRef > ? AND p.created >= ? ORDER BY c.postRef LIMIT ?
                        """), arguments: [termID, reference, read.earliest, read.size])
            return (shown, rows)
        }
        guard let (shown, rows) = rows else { return nil }
        return CountedPostBatch(
            term: shown,
            posts: try rows.map { row in
                CountedPost(
                    post: try StorablePost.decode(row["json"]),
                    counted: (row["counted"] as Int64?).map(Date.init(millisecondsSince1970:)))
            },
            last: rows.last?["postRef"])
    }
}
