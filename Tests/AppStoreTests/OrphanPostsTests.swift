import Foundation
import Posts
import TestSupport
import Testing

@testable import AppStore

/// The SQLite store leaves a pushed-out term's posts waiting, up to an allowance, and deletes them in a batch: each
/// only if no term counts it by then. A waiting post is not shown, a term that fetches it again counts it without
/// storing it twice, and what a process leaves waiting goes when the store is next opened.
struct OrphanPostsTests {
    private let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "smashtag-\(UUID().uuidString).sqlite"
    ).path

    /// Terms `range`, term n fetching the one post n.
    private func search(_ range: ClosedRange<Int>, in database: AppDatabase) async throws {
        let source = ScriptedSource()
        let sessions = OneSourceSessions(database: database, source: source)
        for number in range {
            source.enqueue([post(number, "#t\(number)")])
            _ = try await sessions.fetch("term \(number)", at: .newest)
        }
    }

    private func isShown(_ number: Int, in database: AppDatabase) async throws -> Bool {
        try await database.storedPost(PostKey(network: .twitter, id: String(number))) != nil
    }

    @Test func postsWaitUpToTheAllowanceThenGoTogether() async throws {
        let database = try await AppDatabase.open(at: path, orphanAllowance: 3)
        try await search(0...102, in: database)
        #expect(
            try await Array(database.storedPostIDs().prefix(4)) == ["0", "1", "2", "3"],
            "terms 0, 1 and 2 pushed out: their posts wait")
        #expect(try await !isShown(0, in: database))
        #expect(try await isShown(3, in: database))
        try await search(103...103, in: database)
        #expect(try await database.storedPostIDs().first == "4", "a fourth waiting: all four go")
    }

    @Test func aWaitingPostCountedAgainStays() async throws {
        let database = try await AppDatabase.open(at: path, orphanAllowance: 1)
        try await search(0...100, in: database)
        let source = ScriptedSource()
        source.enqueue([post(0, "#t0")])
        _ = try await OneSourceSessions(database: database, source: source).fetch("again", at: .newest)
        #expect(try await isShown(0, in: database))
        try await search(101...102, in: database)
        #expect(
            try await Array(database.storedPostIDs().prefix(2)) == ["0", "4"],
            "the posts of terms 1, 2 and 3 go; 0 is counted again")
        #expect(try await database.storedPostIDs().filter { $0 == "0" }.count == 1)
    }

    @Test func whatAProcessLeftWaitingGoesAtTheNextOpening() async throws {
        try await search(0...101, in: try await AppDatabase.open(at: path, orphanAllowance: 10))
        #expect(try await AppDatabase.open(at: path, orphanAllowance: 10).storedPostIDs().first == "2")
    }

    @Test func oneBatchAtATimeAndAFailedOneStaysWaiting() {
        let orphans = OrphanPosts(allowance: 1)
        orphans.add([1, 2, 3])
        #expect(orphans.due()?.sorted() == [1, 2, 3])
        #expect(orphans.due() == nil, "the first batch is still being deleted")
        orphans.settle(nil)
        #expect(orphans.due()?.count == 3, "a failed batch waits for the next")
        orphans.settle([1, 2, 3])
        #expect(orphans.due() == nil)
    }
}
