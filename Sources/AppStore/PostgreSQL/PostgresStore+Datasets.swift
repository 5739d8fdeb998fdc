import PostgresNIO
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts counted under a term, a batch at a time, for datasets.
extension PostgresStore {
    /// A range of `counted_post`'s primary key (term, reference) and a seek per post.
    func countedPosts(_ read: CountedPostRead, after reference: Int64) async throws -> CountedPostBatch? {
        let found = try await self.read { connection -> (String, [StoredRow])? in
            guard let (termID, shown) = try await Self.recent(read.term, connection) else { return nil }
            let rows = try await connection.rows(
                """
                SELECT c.post_ref, c.counted, p.json FROM counted_post c JOIN post p ON p.id = c.post_ref
                WHERE c.term_id = \(termID) AND c.post_ref > \(reference) AND p.created >= \(read.earliest)
                ORDER BY c.post_ref LIMIT \(read.size)
                """
            ).map { row in
                StoredRow(
                    reference: try row["post_ref"].decode(Int64.self), counted: try row["counted"].decode(Int64?.self),
                    json: try row["json"].decode(String.self))
            }
            return (shown, rows)
        }
        guard let (shown, rows) = found else { return nil }
        return CountedPostBatch(
            term: shown,
            posts: try rows.map { row in
                CountedPost(
                    post: try StorablePost.decode(row.json),
                    counted: row.counted.map(Date.init(millisecondsSince1970:)))
            },
            last: rows.last?.reference)
    }

    private struct StoredRow: Sendable {
        let reference: Int64
        let counted: Int64?
        let json: String
    }
}
