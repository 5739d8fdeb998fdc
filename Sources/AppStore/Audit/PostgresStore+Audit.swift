import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PostgresStore: AuditStore {
    func audit(_ entry: AuditEntry) async throws {
        try await transaction { connection in
            try await connection.run(
                """
                INSERT INTO audit (at, actor, action, detail, address)
                VALUES (\(entry.at.millisecondsSince1970), \(entry.actor), \(entry.action), \(entry.detail), \
                \(entry.address))
                """)
        }
    }

    func auditEntries(since: Int64, limit: Int) async throws -> [AuditEntry] {
        try await read { connection in
            try await connection.rows(
                "SELECT * FROM audit WHERE at >= \(since) ORDER BY at DESC, id DESC LIMIT \(limit)"
            ).map { row in
                AuditEntry(
                    at: Date(millisecondsSince1970: try row["at"].decode(Int64.self)),
                    actor: try row["actor"].decode(String.self), action: try row["action"].decode(String.self),
                    detail: try row["detail"].decode(String.self), address: try row["address"].decode(String.self))
            }
        }
    }
}
