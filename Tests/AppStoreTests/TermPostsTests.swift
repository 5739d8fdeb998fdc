import AppStore
import Foundation
import Posts
import TestSupport
import Testing

/// A term's posts read back for datasets, on both stores: every post counted under the term exactly once, in the
/// order the store first kept them, a batch at a time, each with when it was first counted, and only the window's.
struct TermPostsTests {
    private static let now = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01 00:00 UTC

    private func post(_ id: Int, hoursAgo: Double) -> Post {
        TestPosts.post(id, by: "poster", "#a @b \(id)", created: Self.now.addingTimeInterval(-hoursAgo * 3600))
    }

    private func read(_ batches: CountedPostBatches?) async throws -> [[CountedPost]] {
        guard let batches else { return [] }
        var all: [[CountedPost]] = []
        for try await batch in batches { all.append(batch) }
        return all
    }

    @Test(arguments: TestStore.available) func everyCountedPostComesOnceInBatchesWithItsCountedTime(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let before = Date()
        let page = { (ids: ClosedRange<Int>) in ids.reversed().map { self.post($0, hoursAgo: Double($0)) } }
        // Overlapping pages and a page fetched again: each post is counted, and read back, once.
        t.source.enqueue(page(1...30), page(20...45), page(1...30))
        for _ in 0..<3 { _ = try await t.sessions.fetch("T", at: .newest, count: 100) }
        let batches = try await TermPosts(database: t.database).batches(of: "t", now: Self.now, size: 10)
        #expect(batches?.term == "T")
        let read = try await read(batches)
        #expect(read.map(\.count) == [10, 10, 10, 10, 5])
        let posts = read.flatMap { $0 }
        #expect(Set(posts.map(\.post.id)) == Set((1...45).map(String.init)))
        #expect(posts.count == 45)
        #expect(posts.allSatisfy { $0.post == post(Int($0.post.id)!, hoursAgo: Double($0.post.id)!) })
        // The first page's posts were kept first.
        #expect(Set(posts.prefix(30).map(\.post.id)) == Set((1...30).map(String.init)))
        let after = Date()
        #expect(
            posts.allSatisfy { counted in
                counted.counted.map { $0 >= before.addingTimeInterval(-1) && $0 <= after.addingTimeInterval(1) }
                    ?? false
            })
    }

    @Test(arguments: TestStore.available) func aWindowReadsThePostsDatedInItOnly(store: TestStore) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(3, hoursAgo: 2), post(2, hoursAgo: 30), post(1, hoursAgo: 24 * 8)])
        _ = try await t.sessions.fetch("T", at: .newest)
        let termPosts = TermPosts(database: t.database)
        let ids = { (window: TimeWindow) in
            try await self.read(termPosts.batches(of: "T", window: window, now: Self.now)).flatMap { $0 }
                .map(\.post.id).sorted()
        }
        #expect(try await ids(.day) == ["3"])
        #expect(try await ids(.week) == ["2", "3"])
        #expect(try await ids(.all) == ["1", "2", "3"])
    }

    @Test(arguments: TestStore.available) func aTermNotInRecentsHasNoPosts(store: TestStore) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, hoursAgo: 1)])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await TermPosts(database: t.database).batches(of: "U") == nil)
        let empty = try await TermPosts(database: t.database).batches(
            of: "T", window: .day, now: Self.now.addingTimeInterval(86_400 * 9))
        #expect(try await read(empty).isEmpty)
    }
}

/// Issue 51: a post whose author has not opted in to search (Mastodon's `indexable: false`) is counted like any other
/// and kept as its key and time only, on both stores.
struct WithheldPostsTests {
    private static func unindexed(_ id: Int, _ text: String) -> Post {
        let post = TestPosts.post(id, by: "private", text)
        return Post(
            network: .mastodon, id: post.id, created: post.created, author: post.author, text: post.text,
            mentions: post.mentions, url: "https://home.social/@private/\(id)", notIndexable: true)
    }

    @Test(arguments: TestStore.available) func aWithheldPostCountsOnceAndKeepsNothingToShowOrExport(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let withheld = Self.unindexed(2, "#a @b a secret")
        t.source.enqueue([withheld, TestPosts.post(1, by: "open", "#a @b")], [withheld])
        _ = try await t.sessions.fetch("T", at: .newest)
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await t.table("T") == ["Hashtags": ["#a 2"], "Users": ["@b 2"]], "counted, once")
        #expect(try await t.database.storedPost(withheld.key) == nil)
        #expect(try await t.database.storedPost(TestPosts.post(1, by: "open", "#a @b").key) != nil)
        let stored = try await t.database.storedPosts(term: "T", newest: .distantFuture, oldest: .distantPast)
        #expect(stored.map(\.id) == ["1"])
        var kept: [CountedPost] = []
        for try await batch in try #require(try await TermPosts(database: t.database).batches(of: "T", now: Date())) {
            kept += batch
        }
        let secret = try #require(kept.first { $0.post.key == withheld.key }).post
        #expect(secret == withheld.withheld, "its key, time and what it named")
        #expect(secret.text.isEmpty && secret.author.handle.isEmpty && secret.url.isEmpty && secret.media.isEmpty)
        #expect(
            secret.mentions.map(\.keyword) == ["#a", "@b"] && secret.mentions.allSatisfy { $0.range == 0..<0 },
            "what it named, for its counts to be taken back: not where, in a text it no longer has")
    }

    /// `smashtag consent off mastodon-indexable`: such posts fetched from then on are kept whole and shown again;
    /// turned on again, none is shown, whatever was kept meanwhile. Every rule is on in a new store.
    @Test(arguments: TestStore.available) func turningTheRuleOffKeepsPostsWholeAndOnAgainHidesThem(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        #expect(try await t.database.consentRules() == .allOn)
        let (before, during) = (Self.unindexed(1, "#a before"), Self.unindexed(2, "#a during"))
        t.source.enqueue([before])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await t.database.setConsentRule(.mastodonIndexable, on: false, at: Date(timeIntervalSince1970: 9)))
        #expect(try await !t.database.setConsentRule(.mastodonIndexable, on: false), "already off")
        let rules = try await t.database.consentRules()
        #expect(rules.off == [.mastodonIndexable: Date(timeIntervalSince1970: 9)] && rules.isOn(.blueskySignedInOnly))
        t.source.enqueue([during, before])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await t.database.storedPost(during.key) == during, "kept whole while the rule is off")
        #expect(try await t.database.storedPost(before.key) == nil, "kept withheld before: nothing to show")
        #expect(try await t.table("T") == ["Hashtags": ["#a 2"], "Users": []], "each counted once")
        #expect(try await t.database.setConsentRule(.mastodonIndexable, on: true))
        #expect(try await t.database.storedPost(during.key) == nil, "the rule on again hides it")
        #expect(try await t.database.consentRules() == .allOn)
    }
}
