import AppStore
import Corpus
import Foundation
import GRDB
import Posts
import Testing

/// The request path's economy (issue 13): a search that changes nothing writes nothing, pages come from a cache that
/// any change to the corpus — from this process or another connection — empties, and counting stays exactly-once.
/// Writes are observed through SQLite itself: `PRAGMA data_version` on a connection of the test's own changes exactly
/// when another connection commits.
struct LeanSearchTests {
    let appPath = temporaryPath("app")
    let corpusPath = temporaryPath("corpus")
    let database: AppDatabase
    let corpus: any PostCorpus
    let sessions: OneSourceSessions
    /// The test's own look at the app database file.
    let observer: DatabaseQueue

    init() async throws {
        database = try await AppDatabase.open(at: appPath)
        corpus = try await SQLiteCorpus.open(at: corpusPath)
        sessions = OneSourceSessions(database: database, source: CorpusSource(corpus: corpus))
        observer = try DatabaseQueue(path: appPath)
        _ = try await corpus.add([post(1, "#a @x"), post(2, "#a @x"), post(3, "#b")])
    }

    private func commits(during body: () async throws -> Void) async throws -> Bool {
        let before = try await dataVersion()
        try await body()
        return try await dataVersion() != before
    }

    private func dataVersion() async throws -> Int {
        try await observer.read { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }

    private func ids(_ page: MergedPage) -> [String] { page.posts.map(\.id) }

    @Test func aRepeatedSearchWithNothingNewWritesNothing() async throws {
        #expect(try await commits { _ = try await sessions.fetch("#a", at: .newest) })
        for _ in 0..<3 {
            var page: MergedPage?
            #expect(try await !commits { page = try await sessions.fetch("#a", at: .newest) })
            #expect(page.map(ids) == ["2", "1"])
        }
        // Another session object (another request handler) reads the database once and writes nothing either.
        let other = OneSourceSessions(database: database, source: CorpusSource(corpus: corpus))
        #expect(try await !commits { _ = try await other.fetch("#a", at: .newest) })
    }

    @Test func aNewPostFromAnotherConnectionShowsOnTheNextPageAndIsCounted() async throws {
        _ = try await sessions.fetch("#a", at: .newest)
        _ = try await sessions.fetch("#a", at: .newest)
        _ = try await SQLiteCorpus.open(at: corpusPath).add([post(4, "#a @x")])
        var page: MergedPage?
        #expect(try await commits { page = try await sessions.fetch("#a", at: .newest) })
        #expect(page.map(ids) == ["4", "2", "1"])
        let table = try await Popularity(database: database).table(for: "#a")
        #expect(table.rows(.users) == [PopularMention(mention: "@x", count: 3)])
        #expect(try await database.storedPostIDs() == ["1", "2", "4"])
    }

    @Test func aPostAddedThroughTheSameCorpusShowsOnTheNextPage() async throws {
        _ = try await sessions.fetch("#a", at: .newest)
        _ = try await corpus.add([post(5, "#a")])
        #expect(ids(try await sessions.fetch("#a", at: .newest)) == ["5", "2", "1"])
    }

    @Test func countingStaysExactlyOnceWhenOnlyNewPostsAreStored() async throws {
        _ = try await sessions.fetch("#a", at: .newest, count: 1)
        _ = try await sessions.fetch("#a", at: .newest)
        _ = try await sessions.fetch("#a", at: .older(than: "2", token: nil))
        _ = try await sessions.fetch("#a", at: .newest)
        let table = try await Popularity(database: database).table(for: "#a")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#a", count: 2)])
        #expect(table.rows(.users) == [PopularMention(mention: "@x", count: 2)])
        #expect(try await database.storedPost(PostKey(network: .twitter, id: "1"))?.text == "#a @x")
    }

    @Test func aNewSpellingOfTheFirstTermIsWrittenAndShown() async throws {
        _ = try await sessions.fetch("#a", at: .newest)
        #expect(try await commits { _ = try await sessions.fetch("#A", at: .newest) })
        #expect(try await Recents(database: database).terms() == ["#A"])
    }

    @Test func aTermSearchedAgainAfterAnotherMovesBackToTheTop() async throws {
        for term in ["#stanford", "#b", "#stanford", "#stanford"] { _ = try await sessions.fetch(term, at: .newest) }
        #expect(try await commits { _ = try await sessions.fetch("#Stanford", at: .newest) })
        #expect(try await Recents(database: database).terms() == ["#Stanford", "#b"])
    }

    @Test func anotherProcesssSearchMakesTheRepeatedSearchWriteAgain() async throws {
        _ = try await sessions.fetch("#a", at: .newest)
        _ = try await sessions.fetch("#a", at: .newest)
        let elsewhere = OneSourceSessions(
            database: try await AppDatabase.open(at: appPath), source: CorpusSource(corpus: corpus))
        _ = try await elsewhere.fetch("#b", at: .newest)
        #expect(try await commits { _ = try await sessions.fetch("#a", at: .newest) })
        #expect(try await Recents(database: database).terms() == ["#a", "#b"])
    }

    @Test func newerAndOlderFollowTheSession() async throws {
        #expect(try await sessions.olderPosition(for: "#a") == .newest)
        _ = try await sessions.fetch("#a", at: .newest, count: 1)
        #expect(try await sessions.olderPosition(for: "#a") == .older(than: "2", token: nil))
        let older = try #require(try await sessions.olderPosition(for: "#a"))
        #expect(ids(try await sessions.fetch("#a", at: older, count: 1)) == ["1"])
        #expect(try await sessions.olderPosition(for: "#a") == nil)
        #expect(try await sessions.newerPosition(for: "#a") == .newer(than: "2"))
    }
}

struct LeanSearchInMemoryTests {
    @Test func aDeletedTermSearchedAgainIsRecordedAgain() async throws {
        let database = try AppDatabase.inMemory()
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add([post(1, "#a")])
        let sessions = OneSourceSessions(database: database, source: CorpusSource(corpus: corpus))
        for _ in 0..<3 { _ = try await sessions.fetch("#a", at: .newest) }
        #expect(try await Recents(database: database).delete("#a"))
        _ = try await sessions.fetch("#a", at: .newest)
        #expect(try await Recents(database: database).terms() == ["#a"])
        #expect(try await Popularity(database: database).table(for: "#a").rows(.hashtags) == [])
        #expect(try await database.storedPostIDs() == ["1"])
    }
}

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(name)-\(UUID().uuidString).sqlite").path
}
