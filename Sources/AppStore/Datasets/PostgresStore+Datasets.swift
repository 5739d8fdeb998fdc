import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts counted under a term, a batch at a time, for datasets.
extension PostgresStore: DatasetStore {
    /// The next `size` references of `counted_post`'s primary key (term, reference), then a seek per post: the
    /// range is a subquery of its own, so the planner walks the key rather than joining the term's every post.
    func countedPosts(_ read: CountedPostRead, after reference: Int64) async throws -> CountedPostBatch? {
        let found = try await self.read { connection -> (String, [CountedPostBatch.Row])? in
            guard let (termID, shown) = try await Self.recent(read.term, connection) else { return nil }
            let rows = try await connection.rows(
                """
                SELECT c.post_ref, c.counted, p.created, p.json, p.expired IS NOT NULL AS expired FROM (
                    SELECT post_ref, counted FROM counted_post WHERE term_id = \(termID) AND post_ref > \(reference)
                    ORDER BY post_ref LIMIT \(read.size)
                ) c JOIN post p ON p.id = c.post_ref ORDER BY c.post_ref
                """
            ).map { row in
                CountedPostBatch.Row(
                    reference: try row["post_ref"].decode(Int64.self), counted: try row["counted"].decode(Int64?.self),
                    created: try row["created"].decode(Int64.self), json: try row["json"].decode(String.self),
                    expired: try row["expired"].decode(Bool.self))
            }
            return (shown, rows)
        }
        guard let (shown, rows) = found else { return nil }
        return try await CountedPostBatch.decoding(term: shown, read: read, rows: rows)
    }
}
