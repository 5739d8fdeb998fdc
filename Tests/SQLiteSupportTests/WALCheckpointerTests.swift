import Foundation
import GRDB
import Testing

@testable import SQLiteSupport

/// SQLite's automatic checkpoint is replaced by one beside the writer: what passes the threshold still reaches the
/// database file, without any connection asking.
struct WALCheckpointerTests {
    @Test func pagesWrittenPastTheThresholdReachTheDatabaseFile() async throws {
        let path = try Self.databasePath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let pool = try SQLiteFile.pool(at: path)
        try await pool.write { try $0.execute(sql: "CREATE TABLE filler(data BLOB NOT NULL)") }
        // A row of 4,000 bytes fills a 4 KB page: 1,500 pages in commits of 100, past the threshold from the tenth.
        for _ in 0..<15 {
            try await pool.write { db in
                for _ in 0..<100 { try db.execute(sql: "INSERT INTO filler(data) VALUES (zeroblob(4000))") }
            }
        }
        #expect(try await eventually { try Self.size(of: path) > 1000 * 4096 })
        #expect(try await pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM filler") } == 1500)
    }

    /// Past the limit the writer does not wait for the checkpointer: the pages are in the database file when the
    /// commit returns (here the checkpointer's threshold is out of reach, so only the writer can have put them there).
    @Test func pastTheLimitTheWriterCheckpointsInItsCommit() async throws {
        let path = try Self.databasePath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let checkpointer = WALCheckpointer(path: path, threshold: .max, limit: 200)
        var configuration = Configuration()
        configuration.prepareDatabase { db in checkpointer.install(on: db) }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try await pool.write { try $0.execute(sql: "CREATE TABLE filler(data BLOB NOT NULL)") }
        try await pool.write { db in
            for _ in 0..<100 { try db.execute(sql: "INSERT INTO filler(data) VALUES (zeroblob(4000))") }
        }
        #expect(try Self.size(of: path) < 100 * 4096, "below the limit, nothing checkpointed")
        try await pool.write { db in
            for _ in 0..<150 { try db.execute(sql: "INSERT INTO filler(data) VALUES (zeroblob(4000))") }
        }
        #expect(try Self.size(of: path) > 200 * 4096)
    }

    /// A database file's path in a directory of its own (its WAL and shared memory go beside it).
    private static func databasePath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("store.sqlite").path
    }

    private static func size(of path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    /// True once `condition` holds, false if it still does not after ten seconds.
    private func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
