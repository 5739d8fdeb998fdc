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

    /// The corpus file's size in bytes, free pages included (SQLite reuses them before it grows the file).
    public func bytesOnDisk() async throws -> Int64 {
        try await writer.read { db in
            let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            return pages * (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        }
    }
}
