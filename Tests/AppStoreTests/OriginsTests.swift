import AppStore
import Foundation
import GRDB
import Logging
import PostgresNIO
import Posts
import TestSupport
import Testing

/// Where a term's counted posts came from: each network's posts counted once, in the window by their own times.
struct OriginsTests {
    private static let now = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01 00:00 UTC

    /// Post `id` of `network`, `hoursAgo` hours before `now`.
    private func post(_ id: Int, on network: Network, hoursAgo: Double) -> Post {
        let post = TestPosts.post(id, "#tag", created: Self.now.addingTimeInterval(-hoursAgo * 3600))
        return Post(
            network: network, id: network == .twitter ? post.id : "\(network)-\(id)", created: post.created,
            author: post.author, text: post.text, mentions: post.mentions)
    }

    @Test(arguments: TestStore.available) func eachNetworksPostsAreCountedOnceMostFirst(store: TestStore) async throws {
        let t = try await store.fixture()
        let page =
            (1...6).map { post($0, on: .mastodon, hoursAgo: Double($0)) }
            + (1...3).map { post($0, on: .twitter, hoursAgo: Double($0) + 48) }
            + [post(1, on: .bluesky, hoursAgo: 24 * 40)]
        t.source.enqueue(page, page)
        _ = try await t.sessions.fetch("#tag", at: .newest, count: 100)
        _ = try await t.sessions.fetch("#TAG", at: .newest, count: 100)
        let origins = try #require(try await Origins(database: t.database).of("#tag", now: Self.now))
        #expect(origins.networks.map(\.network) == [.mastodon, .twitter, .bluesky])
        #expect(origins.networks.map(\.posts) == [6, 3, 1] && origins.posts == 10)
        #expect(origins.sentence == "From 10 posts: 6 from Mastodon, 3 from X, 1 from Bluesky.")
        let day = try #require(try await Origins(database: t.database).of("#tag", window: .day, now: Self.now))
        #expect(day.sentence == "From 6 posts, all from Mastodon.")
        let week = try #require(try await Origins(database: t.database).of("#tag", window: .week, now: Self.now))
        #expect(week.networks.map(\.posts) == [6, 3])
    }

    @Test(arguments: TestStore.available) func aTermNotInRecentsHasNoOrigins(store: TestStore) async throws {
        let t = try await store.fixture()
        #expect(try await Origins(database: t.database).of("#never", now: Self.now) == nil)
        t.source.enqueue([])
        _ = try await t.sessions.fetch("#empty", at: .newest, count: 100)
        let empty = try #require(try await Origins(database: t.database).of("#empty", now: Self.now))
        #expect(empty.posts == 0 && empty.sentence == nil)
    }

    /// Issue 53: posts of several Mastodon servers asked as one, by the server each was written on and each server that
    /// gave them; a post a later page repeats from another server adds that server, and nothing counts twice.
    @Test(arguments: TestStore.available) func aFleetsPostsByServerOnce(store: TestStore) async throws {
        let t = try await store.fixture()
        func fleetPost(_ id: Int, home: String, seenOn: [String]) -> Post {
            let post = TestPosts.post(id, "#tag", created: Self.now.addingTimeInterval(-Double(id) * 3600))
            return Post(
                network: .mastodon, id: "https://\(home)/users/u\(id)/statuses/\(id)", created: post.created,
                author: Author(handle: "u\(id)@\(home)", name: "u"), text: post.text, mentions: post.mentions,
                seenOn: seenOn)
        }
        let first = [
            fleetPost(1, home: "a.example", seenOn: ["a.example"]),
            fleetPost(2, home: "a.example", seenOn: ["a.example", "b.example"]),
            fleetPost(3, home: "B.example", seenOn: ["b.example"]),
        ]
        let second = [
            fleetPost(0, home: "c.example", seenOn: ["c.example"]),
            fleetPost(1, home: "a.example", seenOn: ["a.example", "c.example"]),
            fleetPost(2, home: "a.example", seenOn: ["b.example", "a.example"]),
        ]
        t.source.enqueue(first, second + [first[2]])
        _ = try await t.sessions.fetch("#tag", at: .newest, count: 100)
        _ = try await t.sessions.fetch("#tag", at: .newest, count: 100)
        let origins = try #require(try await Origins(database: t.database).of("#tag", now: Self.now))
        #expect(origins.posts == 4)
        #expect(
            origins.writtenOn.map { [$0.server: $0.posts] } == [["a.example": 2], ["b.example": 1], ["c.example": 1]])
        #expect(origins.seenOn.map { [$0.server: $0.posts] } == [["a.example": 2], ["b.example": 2], ["c.example": 2]])
        #expect(
            origins.servers.map { "\($0.server) \($0.written) \($0.gave)" } == [
                "a.example 2 2", "b.example 1 2", "c.example 1 2",
            ])
        let table = try await Popularity(database: t.database).table(for: "#tag", now: Self.now)
        #expect(table.rows(.hashtags).first?.count == 4)
    }

    /// A fleet's post is named by its `uri`, which names its author: its server rows go when the post does.
    @Test(arguments: TestStore.available) func aPostsServersGoWithIt(store: TestStore) async throws {
        let t = try await store.fixture()
        let posts = (1...3).map { id in
            Post(
                network: .mastodon, id: "https://a.example/users/u\(id)/statuses/\(id)",
                created: Self.now.addingTimeInterval(-Double(id) * 60),
                author: Author(handle: "u\(id)@a.example", name: "u"),
                text: "#tag", mentions: TestPosts.post(id, "#tag").mentions, seenOn: ["a.example", "b.example"])
        }
        t.source.enqueue(posts)
        _ = try await t.sessions.fetch("#tag", at: .newest, count: 100)
        #expect(try await serverRows(t.database) == 6)
        #expect(try await t.recents.delete("#tag"))
        #expect(try await t.database.storedPostIDs().isEmpty)
        #expect(try await serverRows(t.database) == 0)
    }

    private func serverRows(_ database: AppDatabase) async throws -> Int {
        if let writer = database.sqliteWriter {
            return try await writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM postServer")! }
        }
        let client = try #require(database.postgresClient)
        var count = 0
        for try await n in try await client.query(
            "SELECT count(*) AS n FROM post_server", logger: Logger(label: "test")
        )
        .decode(Int.self) {
            count = n
        }
        return count
    }
}
