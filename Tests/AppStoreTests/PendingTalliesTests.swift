import Foundation
import GRDB
import Posts
import TestSupport
import Testing

@testable import AppStore

/// On SQLite a search marks its page counted and leaves the page's mentions waiting (`PendingTallies`): nothing is
/// written to the counts until they are read, a read sees every page counted, the tenth waiting page adds them all,
/// and pages left waiting by a process are added by the next one that reads them.
struct PendingTalliesTests {
    private let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "smashtag-\(UUID().uuidString).sqlite"
    ).path

    /// `pages` pages of `term`, page n the two posts 2n and 2n + 1, each naming #a, #b and @c.
    private func search(_ term: String, pages: Range<Int>, in database: AppDatabase) async throws {
        let source = ScriptedSource()
        let sessions = OneSourceSessions(database: database, source: source)
        for page in pages {
            source.enqueue([post(2 * page, "#a #b @c"), post(2 * page + 1, "#a #b @c")])
            _ = try await sessions.fetch(term, at: .newest)
        }
    }

    /// Rows of the counts and of the waiting pages, as the file holds them.
    private func rows(_ database: AppDatabase) async throws -> (counts: Int, pairs: Int, waiting: Int) {
        try await database.sqliteWriter!.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM mentionCount")!,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM mentionPair")!,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM pendingTally")!
            )
        }
    }

    private func counts(_ term: String, _ database: AppDatabase) async throws -> [String] {
        try await Popularity(database: database).table(for: term).sections.flatMap(\.rows).map {
            "\($0.mention) \($0.count)"
        }
    }

    @Test func aPageWaitsUntilItsCountsAreRead() async throws {
        let database = try await AppDatabase.open(at: path)
        try await search("t", pages: 0..<3, in: database)
        let waiting = try await rows(database)
        #expect(waiting.counts == 0 && waiting.pairs == 0 && waiting.waiting == 3)
        #expect(try await counts("t", database) == ["#a 6", "#b 6", "@c 6"])
        let read = try await rows(database)
        #expect(read.counts == 3 && read.pairs == 6 && read.waiting == 0)
    }

    @Test func theTenthWaitingPageAddsThemAll() async throws {
        let database = try await AppDatabase.open(at: path)
        try await search("t", pages: 0..<(PendingTallies.maximumPages - 1), in: database)
        #expect(try await rows(database).waiting == PendingTallies.maximumPages - 1)
        try await search("t", pages: (PendingTallies.maximumPages - 1)..<PendingTallies.maximumPages, in: database)
        let added = try await rows(database)
        #expect(added.counts == 3 && added.waiting == 0, "a term no one reads is still counted as it goes")
        #expect(try await counts("t", database) == ["#a 20", "#b 20", "@c 20"])
    }

    /// A term pushed out unread had nothing in the count tables (its removal does not look there); one read had, and
    /// takes it all with it — as does the term that takes its id after it.
    @Test func aTermGoesWithWhatItWroteReadOrNot() async throws {
        let database = try await AppDatabase.open(at: path)
        try await search("unread", pages: 2..<4, in: database)
        try await search("read", pages: 0..<2, in: database)
        _ = try await counts("read", database)
        let written = try await database.sqliteWriter!.read { db in
            try [String: Bool](
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, countsWritten FROM recent").map {
                    ($0["key"], $0["countsWritten"])
                })
        }
        #expect(written == ["read": true, "unread": false])
        // The newest term's id is the next term's.
        #expect(try await Recents(database: database).delete("read"))
        try await search("next", pages: 4..<5, in: database)
        let reused = try await database.sqliteWriter!.read { db in
            try Int.fetchOne(db, sql: "SELECT id FROM recent WHERE key = 'next'")
        }
        #expect(reused == 2)
        #expect(try await counts("next", database) == ["#a 2", "#b 2", "@c 2"])
        for term in ["unread", "next"] { #expect(try await Recents(database: database).delete(term)) }
        let left = try await database.sqliteWriter!.read { db in
            try ["mentionCount", "mentionTrend", "mentionPair", "mentionPairHour", "pendingTally", "countedPost"].map {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")!
            }
        }
        #expect(left == [0, 0, 0, 0, 0, 0])
    }

    @Test func pagesAProcessLeftWaitingAreAddedByTheNextReader() async throws {
        try await search("t", pages: 0..<2, in: try await AppDatabase.open(at: path))
        let reopened = try await AppDatabase.open(at: path)
        #expect(try await rows(reopened).waiting == 2)
        #expect(try await counts("t", reopened) == ["#a 4", "#b 4", "@c 4"])
    }
}
