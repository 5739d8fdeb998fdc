import Foundation
import GRDB
import Testing

@testable import SQLiteSupport

/// A read on the calling thread never holds it long and never waits: past its budget, or with no connection free, it
/// is left to the async way.
struct InlineReadersTests {
    @Test func aReadPastItsBudgetIsInterruptedAndTheConnectionServesTheNext() async throws {
        try await withDatabase { path, _ in
            let readers = try InlineReaders(path: path, count: 1, budget: .milliseconds(5))
            let started = ContinuousClock.now
            // Counting to a billion takes SQLite minutes.
            let endless = try readers.read { db in
                try Int.fetchOne(
                    db,
                    sql:
                        """
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) \
                        SELECT count(*) FROM n
                        """
                )
            }
            #expect(endless == nil)
            #expect(ContinuousClock.now - started < .seconds(30), "minutes without the budget")
            #expect(try readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 1)
        }
    }

    @Test func withEveryConnectionBusyAReadReturnsAtOnce() async throws {
        try await withDatabase { path, _ in
            let readers = try InlineReaders(path: path, count: 1)
            let nested = try readers.read { _ in try readers.read { _ in true } }
            #expect(nested == .some(nil))
        }
    }

    @Test func eachReadSeesTheLatestCommit() async throws {
        try await withDatabase { path, pool in
            let readers = try InlineReaders(path: path, count: 1)
            #expect(try readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 1)
            try await pool.write { try $0.execute(sql: "INSERT INTO item(name) VALUES ('second')") }
            #expect(try readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 2)
        }
    }

    /// A WAL database with one row in `item`, in a directory of its own removed afterwards.
    private func withDatabase(_ body: (String, DatabasePool) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("corpus.sqlite").path
        let pool = try SQLiteFile.pool(at: path)
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE item(name TEXT NOT NULL); INSERT INTO item(name) VALUES ('first')")
        }
        try await body(path, pool)
    }
}
