import AppStore
import Foundation
import Logging
import PostgresNIO
import PostgresSupport
import Posts
import ServiceLifecycle
import TestSupport
import Testing

/// The stores the store suites run against: SQLite in memory always, and PostgreSQL when `scripts/test` has started
/// a throwaway cluster (`SMASHTAG_TEST_POSTGRES_URL`) — each test in a database of its own. Both delete a pushed-out
/// term's posts right after the search that pushed it out; `OrphanPostsTests` has the batches.
enum TestStore: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static var available: [TestStore] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// The cluster's maintenance database, where the tests' databases are created.
    static let postgresURL = TestPostgres.url

    var testDescription: String { rawValue }

    func open() async throws -> AppDatabase {
        switch self {
        case .sqlite: try AppDatabase.inMemory(orphanAllowance: 0)
        case .postgres: try await Self.postgres(at: try await TestPostgres.newDatabase())
        }
    }

    /// The store in the PostgreSQL database at `url`, its migrations run.
    static func postgres(at url: String) async throws -> AppDatabase {
        try await running(AppDatabase.connect(to: PostgresURL(url), orphanAllowance: 0, logger: Logger(label: "test")))
    }

    /// The database with its connections open for the rest of the test run, as the application's services keep them.
    private static func running(_ database: AppDatabase) -> AppDatabase {
        if let service = database.service { Task { try await service.run() } }
        return database
    }

    /// A store with a source the test scripts, and the app's views of it.
    func fixture() async throws -> StoreFixture {
        StoreFixture(database: try await open())
    }
}

/// One test's store, the source it scripts, and the app's views of them.
struct StoreFixture {
    let database: AppDatabase
    let source = ScriptedSource()
    var sessions: OneSourceSessions { OneSourceSessions(database: database, source: source) }
    var popularity: Popularity { Popularity(database: database) }
    var trends: Trends { Trends(database: database) }
    var recents: Recents { Recents(database: database) }

    /// The term's table as "mention count" lines by section title.
    func table(_ term: String) async throws -> [String: [String]] {
        let table = try await popularity.table(for: term)
        return Dictionary(
            uniqueKeysWithValues: table.sections.map { ($0.title, $0.rows.map { "\($0.mention) \($0.count)" }) })
    }
}

/// Post `id`, made `id` seconds after 1970 by @poster, whose text is its mentions.
func post(_ id: Int, _ text: String) -> Post {
    TestPosts.post(id, by: "poster", text, created: Date(timeIntervalSince1970: Double(id)))
}

/// The same, replying to @`user`'s post 1 (an interaction for the conversation networks).
func reply(_ id: Int, _ text: String, to user: String) -> Post {
    Post(
        id: String(id), created: Date(timeIntervalSince1970: Double(id)), author: TestPosts.author("poster"),
        text: text, mentions: TestPosts.mentions(in: text), inReplyToID: "1", inReplyToUser: user)
}
