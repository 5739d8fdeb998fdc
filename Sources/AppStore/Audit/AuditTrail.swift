import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One write as the audit trail keeps it: when, who (a person's name, `name (token abc123)`, `owner` or `visitor`),
/// what (`sign-in`, `track`, …), its details, and the address it came from.
public struct AuditEntry: Sendable, Hashable, Codable {
    public let at: Date
    public let actor: String
    public let action: String
    public let detail: String
    public let address: String

    public init(at: Date = Date(), actor: String, action: String, detail: String, address: String) {
        (self.at, self.actor, self.action, self.detail, self.address) = (at, actor, action, detail, address)
    }
}

/// Every write recorded with who, when, what and from where: sign-ins and failed sign-ins, tracking, exports with
/// their options, people and token changes, deletions. Kept in the store, so every server's writes are in one trail.
public struct AuditTrail: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func record(_ entry: AuditEntry) async throws {
        try await database.store.audit(entry)
    }

    /// Newest first, since `since`, at most `limit`.
    public func entries(since: Date, limit: Int = 1000) async throws -> [AuditEntry] {
        try await database.store.auditEntries(since: since.millisecondsSince1970, limit: limit)
    }
}

/// The audit trail as the store keeps it; times in milliseconds since 1970.
protocol AuditStore: Sendable {
    func audit(_ entry: AuditEntry) async throws
    func auditEntries(since: Int64, limit: Int) async throws -> [AuditEntry]
}
