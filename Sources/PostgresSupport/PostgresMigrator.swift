import Logging
import PostgresNIO

/// A schema in versions applied in order at start-up, each in a transaction of its own and recorded in a table of
/// its own. They run under a session advisory lock, so servers starting together on an empty database wait for one
/// another instead of racing to create the same tables.
package struct PostgresMigrator: Sendable {
    package typealias Version = (name: String, statements: [String])

    /// Where the applied versions are recorded.
    let table: String
    let lock: AdvisoryLock
    let versions: [Version]
    /// What a version fills in, in its transaction after its statements (by its number, from 1).
    let backfill: @Sendable (Int, PostgresConnection) async throws -> Void

    package init(
        table: String, lock: AdvisoryLock, versions: [Version],
        backfill: @escaping @Sendable (Int, PostgresConnection) async throws -> Void = { _, _ in }
    ) {
        (self.table, self.lock, self.versions, self.backfill) = (table, lock, versions, backfill)
    }

    package func run(on connection: PostgresConnection, logger: Logger) async throws {
        try await lock.lock(on: connection)
        do {
            try await migrate(connection, logger: logger)
            try await lock.unlock(on: connection)
        } catch {
            try? await lock.unlock(on: connection)
            throw error
        }
    }

    /// Whether every version this build knows is applied (a newer server may have applied more).
    package func isComplete(on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.rows(PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0) FROM \(table)"))
        let applied = try rows.first?[0].decode(Int.self) ?? 0
        return applied >= versions.count
    }

    private func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            PostgresQuery(
                unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(table) (
                        version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())
                    """))
        let applied = Set(
            try await connection.rows(PostgresQuery(unsafeSQL: "SELECT version FROM \(table)")).map {
                try $0["version"].decode(Int.self)
            })
        for (index, version) in versions.enumerated() where !applied.contains(index + 1) {
            logger.info("Migrating the PostgreSQL database: \(version.name)")
            try await connection.withTransaction(logger: logger) { connection in
                for statement in version.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await backfill(index + 1, connection)
                var insert = PostgresQuery(unsafeSQL: "INSERT INTO \(table) (version, name) VALUES ($1, $2)")
                insert.binds.append(index + 1)
                insert.binds.append(version.name)
                try await connection.query(insert, logger: logger)
            }
        }
    }
}
