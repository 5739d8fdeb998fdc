import Corpus
import Foundation
import GRDB
import Posts
import Testing

@testable import AppStore

/// Writes that arrive together share a commit, each still all or nothing (issue 13's lean request path).
struct GroupCommitTests {
    private func table() throws -> (DatabaseQueue, GroupCommit) {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: "CREATE TABLE row (id INTEGER PRIMARY KEY, value TEXT NOT NULL)") }
        return (queue, GroupCommit(writer: queue))
    }

    @Test func everyWriteOfAGroupIsCommittedAndReturnsItsOwnResult() async throws {
        let (queue, group) = try table()
        let results = try await withThrowingTaskGroup(of: Int64.self) { tasks in
            for n in 1...100 {
                tasks.addTask {
                    try await group.write { db in
                        try db.execute(sql: "INSERT INTO row(id, value) VALUES (?, 'v')", arguments: [n])
                        return db.lastInsertedRowID
                    }
                }
            }
            return try await tasks.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == Array(1...100))
        #expect(try await queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM row") } == 100)
    }

    @Test func aFailingWriteIsRolledBackAloneAndOnlyItsCallerHearsOfIt() async throws {
        let (queue, group) = try table()
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { tasks in
            for n in 1...40 {
                tasks.addTask {
                    do {
                        try await group.write { db in
                            try db.execute(
                                sql: "INSERT INTO row(id, value) VALUES (?, 'first half')", arguments: [n * 1000])
                            // Every fifth write fails after having written: none of it may stay.
                            let second: String? = n % 5 == 0 ? nil : "second half"
                            try db.execute(
                                sql: "INSERT INTO row(id, value) VALUES (?, ?)", arguments: [n * 1000 + 1, second])
                        }
                        return (n, true)
                    } catch {
                        return (n, false)
                    }
                }
            }
            return await tasks.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let failed = outcomes.filter { !$0.value }.keys.sorted()
        #expect(failed == [5, 10, 15, 20, 25, 30, 35, 40])
        let stored = try await queue.read { try Int.fetchAll($0, sql: "SELECT id FROM row ORDER BY id") }
        var expected: [Int] = []
        for n in 1...40 where n % 5 != 0 { expected += [n * 1000, n * 1000 + 1] }
        #expect(stored == expected)
    }

    @Test func concurrentSearchesOfManyTermsCountEveryTweetOnceUnderEach() async throws {
        let database = try AppDatabase.inMemory()
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add((1...30).map { post($0, "#t\($0 % 6) @u\($0 % 4)") })
        let sessions = OneSourceSessions(database: database, source: CorpusSource(corpus: corpus))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for round in 0..<4 {
                for n in 0..<6 {
                    tasks.addTask { _ = try await sessions.fetch("#t\(n)", at: .newest, count: 3 + round) }
                }
            }
            try await tasks.waitForAll()
        }
        for n in 0..<6 {
            let table = try await Popularity(database: database).table(for: "#t\(n)")
            // Five tweets carry each tag; every one was fetched (the largest page held 6), and counted once.
            #expect(table.rows(.hashtags) == [PopularMention(mention: "#t\(n)", count: 5)])
        }
        #expect(try await Recents(database: database).terms().count == 6)
    }
}
