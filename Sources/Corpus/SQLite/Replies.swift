import GRDB
import Posts
import SQLiteSupport

/// A post's replies in the SQLite corpus: the search index's list of `reply:network:id`, walked in key order.
extension SQLiteCorpus {
    public func replies(to parents: [PostKey], after: String?, limit: Int) async throws -> [PostKey: CorpusReplies] {
        guard !parents.isEmpty else { return [:] }
        let generation = try self.generation.current()
        return try await read { db in
            // Keys are never negative (`OrderKey`); a row is its key negated (`SearchIndex`), so oldest first is
            // the rows' descending order.
            let start = try after.flatMap { try OrderKeys.key(of: $0, db) }.map(OrderKey.after) ?? 0
            let page = try db.cachedStatement(
                sql: """
                    SELECT -rowid FROM searchIndex WHERE searchIndex MATCH ? AND rowid <= -? ORDER BY rowid DESC \
                    LIMIT ?
                    """)
            let count = try db.cachedStatement(
                sql: "SELECT count(*) FROM searchIndex WHERE searchIndex MATCH ? AND rowid <= -?")
            var found: [PostKey: CorpusReplies] = [:]
            for parent in parents {
                let term = SearchTokens.termQuery(IndexEntry.reply(to: parent))
                let total = try Int.fetchOne(count, arguments: [term, start]) ?? 0
                guard total > 0 else { continue }
                let keys = limit > 0 ? try Int64.fetchAll(page, arguments: [term, start, limit]) : []
                found[parent] = CorpusReplies(posts: try posts(keys, in: db, at: generation), count: total)
            }
            return found
        }
    }
}
