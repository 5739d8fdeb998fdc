import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SQLiteStore: AuditStore {
    func audit(_ entry: AuditEntry) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO audit(at, actor, action, detail, address) VALUES (?, ?, ?, ?, ?)",
                arguments: [entry.at.millisecondsSince1970, entry.actor, entry.action, entry.detail, entry.address])
        }
    }

    func auditEntries(since: Int64, limit: Int) async throws -> [AuditEntry] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM audit WHERE at >= ? ORDER BY at DESC, id DESC LIMIT ?",
                arguments: [since, limit]
            ).map { row in
                AuditEntry(
                    at: Date(millisecondsSince1970: row["at"]), actor: row["actor"], action: row["action"],
                    detail: row["detail"], address: row["address"])
            }
        }
    }
}
