import Foundation
import GRDB
import Testing

@testable import SQLiteSupport

/// A read on the calling thread never holds it long and never waits: with no connection free it is left to the async
/// way, and past its budget it is run again on a thread that may block, on the connection that began it.
struct InlineReadersTests {
    @Test func aReadPastItsBudgetIsInterruptedAndTheConnectionServesTheNext() async throws {
        try await withDatabase { path, _ in
            let readers = try InlineReaders(path: path, count: 1, budget: .milliseconds(5))
            let started = ContinuousClock.now
            // Counting to a billion takes SQLite minutes.
            let endless = try readers.attempt { db in try Int.fetchOne(db, sql: Self.counting(to: 1_000_000_000)) }
            guard case .outlasted(let connection) = endless else {
                Issue.record("not interrupted: \(endless)")
                return
            }
            #expect(ContinuousClock.now - started < .seconds(30), "minutes without the budget")
            readers.release(connection)
            #expect(try await readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 1)
        }
    }

    @Test func aReadPastItsBudgetEndsOnItsOwnConnection() async throws {
        try await withDatabase { path, _ in
            let readers = try InlineReaders(path: path, count: 1, budget: .milliseconds(1))
            // Some tenths of a second: hundreds of times the budget.
            let read = try await readers.read { db in
                (try Int.fetchOne(db, sql: Self.counting(to: 2_000_000)), db.configuration.label)
            }
            #expect(read?.0 == 2_000_000)
            #expect(read?.1 == "inline-read", "read again on another connection")
            #expect(try await readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 1)
        }
    }

    @Test func withEveryConnectionBusyAReadReturnsAtOnce() async throws {
        try await withDatabase { path, _ in
            let readers = try InlineReaders(path: path, count: 1)
            let nested = try readers.attempt { _ in try readers.attempt { _ in true } }
            guard case .read(.busy) = nested else {
                Issue.record("the nested read was not refused: \(nested)")
                return
            }
        }
    }

    @Test func eachReadSeesTheLatestCommit() async throws {
        try await withDatabase { path, pool in
            let readers = try InlineReaders(path: path, count: 1)
            #expect(try await readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 1)
            try await pool.write { try $0.execute(sql: "INSERT INTO item(name) VALUES ('second')") }
            #expect(try await readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 2)
        }
    }

    /// SQL that counts from 1 to `end` row by row.
    private static func counting(to end: Int) -> String {
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(end)) SELECT count(*) FROM n"
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
