import AppStore
import Foundation
import GRDB
import Logging
import PostgresNIO
import Posts
import SmashtagApp
import TestSupport
import Testing

struct PopularityTests {
    @Test(arguments: TestStore.available) func mentionsNamedByMoreThanOneTweetAreCountedInTwoSections(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, "#a #b @c"), post(2, "#a @c @d"), post(3, "#a #b")])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await t.table("T") == ["Hashtags": ["#a 3", "#b 2"], "Users": ["@c 2"]])
    }

    @Test(arguments: TestStore.available) func mentionsAreOneCaseInsensitivelyAndATweetNamingOneTwiceCountsOnce(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        // Newest first, as sources give them: the newest spelling is the one first seen.
        t.source.enqueue([post(2, "#Swift #swift #SWIFT @Nasa"), post(1, "#swift @NASA")])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await t.table("T") == ["Hashtags": ["#Swift 2"], "Users": ["@Nasa 2"]])
    }

    /// PostgreSQL raised "a mention without its row" for a page whose posts named no hashtag or user (issue 51).
    @Test(arguments: TestStore.available) func aPageNamingNoOneIsRecordedWithNothingToCount(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(2, "plain words"), post(1, "more plain words")])
        _ = try await t.sessions.fetch("words", at: .newest, count: 10)
        #expect(try await t.recents.terms() == ["words"])
        #expect(try await t.table("words") == ["Hashtags": [], "Users": []])
    }

    @Test(arguments: TestStore.available) func fetchingATweetAgainNeverChangesACount(store: TestStore) async throws {
        let t = try await store.fixture()
        t.source.enqueue(
            [post(2, "#a"), post(1, "#a")], [post(3, "#a"), post(2, "#a")],
            [post(2, "#a"), post(1, "#a"), post(0, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        _ = try await t.sessions.fetch("T", at: .newer(than: "0"))
        _ = try await t.sessions.fetch("T", at: .older(than: "9", token: nil))
        #expect(try await t.table("T") == ["Hashtags": ["#a 4"], "Users": []])
    }

    @Test(arguments: TestStore.available) func aTweetFetchedUnderTwoTermsCountsOnceUnderEach(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, "#a"), post(2, "#a")], [post(1, "#a"), post(2, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        _ = try await t.sessions.fetch("U", at: .newest)
        #expect(try await t.table("T") == ["Hashtags": ["#a 2"], "Users": []])
        #expect(try await t.table("U") == ["Hashtags": ["#a 2"], "Users": []])
    }

    @Test(arguments: TestStore.available) func termsAreTheSameCaseInsensitivelyAfterTrimmingAndCollapsingSpaces(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, "#a")], [post(2, "#a")])
        _ = try await t.sessions.fetch("swift  OR rust", at: .newest)
        _ = try await t.sessions.fetch("  SWIFT or RUST ", at: .newest)
        #expect(try await t.table("Swift Or Rust") == ["Hashtags": ["#a 2"], "Users": []])
        #expect(try await t.recents.terms() == ["SWIFT or RUST"])
    }

    @Test(arguments: TestStore.available) func tiesAreAlphabeticalCaseInsensitively(store: TestStore) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, "#b #A #c @z @Y"), post(2, "#b #A #c @z @Y"), post(3, "#c")])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await t.table("T") == ["Hashtags": ["#c 3", "#A 2", "#b 2"], "Users": ["@Y 2", "@z 2"]])
    }

    @Test(arguments: TestStore.available) func recentsAreMostRecentFirstUniqueWithTheNewestSpelling(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        for term in ["#stanford", "#swift", "#Stanford"] { _ = try await t.sessions.fetch(term, at: .newest) }
        #expect(try await t.recents.terms() == ["#Stanford", "#swift"])
    }

    @Test(arguments: TestStore.available) func deletingATermTakesItsCountsAndTheTweetsOnlyItCounted(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, "#a"), post(2, "#a")], [post(2, "#a"), post(3, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        _ = try await t.sessions.fetch("U", at: .newest)
        #expect(try await t.recents.delete("t"))
        #expect(try await t.table("T") == ["Hashtags": [], "Users": []])
        #expect(try await t.table("U") == ["Hashtags": ["#a 2"], "Users": []])
        #expect(try await t.database.storedPostIDs() == ["2", "3"])
        #expect(try await !t.recents.delete("t"))
    }

    @Test(arguments: TestStore.available) func theHundredAndFirstTermPushesTheOldestOutWithItsData(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, "#a"), post(2, "#a")])
        for number in 0...100 { _ = try await t.sessions.fetch("term \(number)", at: .newest) }
        let terms = try await t.recents.terms()
        #expect(terms.count == 100 && terms.first == "term 100" && terms.last == "term 1")
        #expect(try await t.table("term 0") == ["Hashtags": [], "Users": []])
        #expect(try await t.database.storedPostIDs().isEmpty)
    }
}

/// Foreign keys are declared but not enforced in SQLite (nothing cascades): a term that goes, deleted or pushed out
/// of Recents, must take every row that names it — its counts, and the pages waiting to be added to them.
struct SQLiteRemovalTests {
    @Test func aTermThatGoesLeavesNoRowNamingIt() async throws {
        let t = try await TestStore.sqlite.fixture()
        for number in 0...100 {
            t.source.enqueue([post(1, "#a @b"), reply(number + 2, "#a", to: "b")])
            _ = try await t.sessions.fetch("term \(number)", at: .newest)
            // Read, so its counts are written; term 99's page is left waiting.
            if number != 99 { _ = try await t.popularity.conversations(for: "term \(number)") }
        }
        #expect(try await t.recents.delete("term 100"))
        let tables = [
            "countedPost", "mentionCount", "mentionTrend", "mentionPair", "mentionPairHour", "interaction",
            "interactionHour", "interactionUser", "interactionPost", "pendingTally",
        ]
        let (orphans, kept) = try await t.database.sqliteWriter!.read { db in
            (
                try tables.map { table in
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM \(table) WHERE termID NOT IN (SELECT id FROM recent)")!
                },
                try Int.fetchOne(db, sql: "SELECT count(*) FROM interaction")!
            )
        }
        #expect(orphans == tables.map { _ in 0 })
        #expect(kept == 98, "each of the 98 terms read (term 0 pushed out, term 100 deleted) keeps its reply")
        #expect(try await t.popularity.conversations(for: "term 99")?.mostRepliedTo.count == 1, "added when read")
        let posts = try await t.database.storedPostIDs()
        #expect(
            posts.count == 100 && !posts.contains("2") && !posts.contains("102"),
            "the posts only those two terms counted go")
    }
}

/// PostgreSQL's counting tables have no foreign keys since `v5` (locks keep them true, and nothing cascades): a
/// term that goes, deleted or pushed out of Recents, must take every row that names it, and its posts once no term
/// counts them.
@Suite(.enabled(if: TestStore.postgresURL != nil, "no test PostgreSQL (SMASHTAG_TEST_POSTGRES_URL)"))
struct PostgresRemovalTests {
    @Test func aTermThatGoesLeavesNoRowNamingIt() async throws {
        let t = try await TestStore.postgres.fixture()
        for number in 0...100 {
            t.source.enqueue([post(1, "#a @b"), reply(number + 2, "#a @c", to: "b")])
            _ = try await t.sessions.fetch("term \(number)", at: .newest)
        }
        #expect(try await t.recents.delete("term 100"))
        let client = try #require(t.database.postgresClient)
        var orphans: [Int] = []
        let tables = [
            "counted_post", "mention_count", "mention_trend", "mention_pair", "mention_pair_hour", "interaction",
            "interaction_hour", "interaction_user", "interaction_post",
        ]
        for table in tables {
            let rows = try await client.query(
                "SELECT count(*) AS n FROM \(unescaped: table) WHERE term_id NOT IN (SELECT id FROM recent)",
                logger: Logger(label: "test"))
            for try await count in rows.decode(Int.self) { orphans.append(count) }
        }
        #expect(orphans == tables.map { _ in 0 })
        let posts = try await t.database.storedPostIDs()
        #expect(
            posts.count == 100 && !posts.contains("2") && !posts.contains("102"),
            "the posts only those two terms counted go")
    }
}

struct PopularityPersistenceTests {
    @Test func countsSurviveReopeningTheDatabase() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString).sqlite")
            .path
        let source = ScriptedSource()
        source.enqueue([post(1, "#a @b"), post(2, "#a @b")])
        _ = try await OneSourceSessions(database: try await AppDatabase.open(at: path), source: source).fetch(
            "T", at: .newest)
        let reopened = try await AppDatabase.open(at: path)
        let table = try await Popularity(database: reopened).table(for: "T")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#a", count: 2)])
        #expect(try await Recents(database: reopened).terms() == ["T"])
    }

    @Test func theLiveTableSeesAnotherConnectionsWrite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString).sqlite")
            .path
        let watching = try await AppDatabase.open(at: path)
        let writing = try await AppDatabase.open(at: path)
        let source = ScriptedSource()
        source.enqueue([post(1, "#a")], [post(2, "#a")])
        _ = try await OneSourceSessions(database: writing, source: source).fetch("T", at: .newest)
        var updates = try LivePopularity(database: watching).updates(for: "T").makeAsyncIterator()
        #expect(try await updates.next()?.rows(.hashtags) == [])
        _ = try await OneSourceSessions(database: writing, source: source).fetch("T", at: .newer(than: "0"))
        #expect(try await updates.next()?.rows(.hashtags) == [PopularMention(mention: "#a", count: 2)])
    }

    @Test(arguments: TestStore.available) func theLiveTableSeesThisProcesssWrite(store: TestStore) async throws {
        let database = try await store.open()
        let source = ScriptedSource()
        source.enqueue([post(1, "@x")], [post(2, "@x")])
        _ = try await OneSourceSessions(database: database, source: source).fetch("T", at: .newest)
        var updates = try LivePopularity(database: database).updates(for: "T").makeAsyncIterator()
        #expect(try await updates.next()?.rows(.users) == [])
        _ = try await OneSourceSessions(database: database, source: source).fetch("T", at: .newer(than: "0"))
        #expect(try await updates.next()?.rows(.users) == [PopularMention(mention: "@x", count: 2)])
    }
}
