import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts counted under a term, a batch at a time, for datasets.
extension SQLiteStore: DatasetStore {
    /// The next `size` references of `countedPost`'s key (term, reference), then a seek per post; the JSON is
    /// decoded after the read, off the reader. The rows leave the read as `Sendable` values: GRDB's `Row` is not,
    /// and a closure returning one would choose the blocking `read`, which parks a cooperative thread until a reader
    /// is free (with a few downloads at once, every thread, for good).
    func countedPosts(_ read: CountedPostRead, after reference: Int64) async throws -> CountedPostBatch? {
        let found = try await writer.read { db -> (String, [CountedPostBatch.Row])? in
            guard let (termID, shown) = try Self.recent(read.term, db) else { return nil }
            // Values straight from the cursor, by column index: `fetchAll` would copy every row with its column names.
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT c.postRef, c.counted, p.created, p.json, p.expired IS NOT NULL FROM (
                            SELECT postRef, counted FROM countedPost WHERE termID = ? AND postRef > ? ORDER BY postRef
                            LIMIT ?
                        ) c JOIN post p ON p.id = c.postRef ORDER BY c.postRef
                        """), arguments: [termID, reference, read.size]
            ).map { row in
                CountedPostBatch.Row(
                    reference: row[0], counted: row[1], created: row[2], json: row[3], expired: row[4])
            }
            return (shown, try Array(rows))
        }
        guard let (shown, rows) = found else { return nil }
        return try await CountedPostBatch.decoding(term: shown, read: read, rows: rows)
    }
}
