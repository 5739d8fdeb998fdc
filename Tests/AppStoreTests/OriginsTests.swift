import AppStore
import Foundation
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
}
