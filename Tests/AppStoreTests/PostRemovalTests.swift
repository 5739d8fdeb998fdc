import AppStore
import Foundation
import Posts
import TestSupport
import Testing

/// Posts taken back out (deleted, forgotten): every term that counted them is left exactly as if they had never
/// been counted — the same tables in every window, networks, trends, sparklines and origins as the same searches
/// without them, on both stores.
struct PostRemovalTests {
    /// Every fifth post withheld (its author has not opted in to search): kept without text or author, and still
    /// taken back exactly.
    private static func posts() -> [Post] {
        BothStoresTests.posts().map { post in
            guard Int(post.id)! % 5 == 0 else { return post }
            return Post(
                network: post.network, id: post.id, created: post.created, author: post.author, text: post.text,
                mentions: post.mentions, url: post.url, notIndexable: true)
        }
    }

    @Test(arguments: TestStore.available) func removedPostsLeaveEveryTermAsIfTheyHadNeverBeenCounted(
        store: TestStore
    ) async throws {
        let posts = Self.posts()
        let searches = BothStoresTests.searches(of: posts)
        let gone = Set(posts.filter { Int($0.id)! % 3 == 0 || Int($0.id)! % 10 == 0 }.map(\.key))
        let t = try await store.fixture()
        try await BothStoresTests.run(searches, t)
        let counted = Set(searches.flatMap(\.page).map(\.key))
        let removed = try await t.database.removePosts(Array(gone) + [PostKey(network: .mastodon, id: "never")])
        #expect(removed.posts == gone.intersection(counted).count)
        #expect(removed.terms.count == 4)

        let recount = try await store.fixture()
        try await BothStoresTests.run(searches.map { ($0.term, $0.page.filter { !gone.contains($0.key) }) }, recount)
        #expect(try await BothStoresTests.readings(of: t) == BothStoresTests.readings(of: recount))
        #expect(try await t.database.storedPostIDs() == recount.database.storedPostIDs())
        #expect(try await t.database.removePosts(Array(gone)) == RemovedPosts(), "removed once")
    }

    @Test(arguments: TestStore.available) func aRemovedPostCountedAgainCountsOnce(store: TestStore) async throws {
        let t = try await store.fixture()
        let page = [post(3, "#a @b #c"), post(2, "#a #c"), post(1, "#a")]
        t.source.enqueue(page, page)
        _ = try await t.sessions.fetch("T", at: .newest, count: 10)
        _ = try await t.database.removePosts([page[0].key])
        #expect(try await t.table("T") == ["Hashtags": ["#a 2"], "Users": []], "a table shows what was named twice")
        _ = try await t.sessions.fetch("T", at: .newest, count: 10)
        #expect(try await t.table("T") == ["Hashtags": ["#a 3", "#c 2"], "Users": []])
    }

    @Test(arguments: TestStore.available) func anAccountsKeptPostsAreFoundByTheirURIs(store: TestStore) async throws {
        let t = try await store.fixture()
        let posts = ["did:plc:ab", "did:plc:ab", "did:plc:abc", "did:plc:a"].enumerated().map { index, did in
            Post(
                network: .bluesky, id: "at://\(did)/app.bsky.feed.post/\(index)",
                created: Date(timeIntervalSince1970: Double(100 - index)), author: TestPosts.author(did), text: "#a")
        }
        t.source.enqueue(posts)
        _ = try await t.sessions.fetch("T", at: .newest, count: 10)
        let keys = try await t.database.storedKeys(ofAccount: "did:plc:ab")
        #expect(
            Set(keys.map(\.id)) == ["at://did:plc:ab/app.bsky.feed.post/0", "at://did:plc:ab/app.bsky.feed.post/1"])
        #expect(try await t.database.storedKeys(ofAccount: "did:plc:zz").isEmpty)
    }

    @Test(arguments: TestStore.available) func rechecksWalkTheKeptPostsOnceEachUntilChecked(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue((1...7).reversed().map { post($0, "#a") })
        _ = try await t.sessions.fetch("T", at: .newest, count: 10)
        let first = try await t.database.recheckCandidates(.twitter, after: 0, checkedBefore: 1_000, limit: 4)
        let rest = try await t.database.recheckCandidates(
            .twitter, after: first.last!.reference, checkedBefore: 1_000, limit: 4)
        #expect(first.count == 4 && rest.count == 3, "in the order they were stored")
        #expect(Set((first + rest).map(\.key.id)) == Set((1...7).map(String.init)))
        #expect(try await t.database.recheckCandidates(.mastodon, after: 0, checkedBefore: 1_000, limit: 4).isEmpty)
        try await t.database.markChecked(first.map(\.key), at: 2_000)
        let due = try await t.database.recheckCandidates(.twitter, after: 0, checkedBefore: 1_500, limit: 10)
        #expect(due == rest, "those checked since are passed over")
        let state = try #require(try await t.database.recheckState(term: "t"))
        #expect(state.posts == 7 && state.checked == 4 && state.oldestCheck == 2_000)
        #expect(try await t.database.storedKeys(byAuthor: "@POSTER").count == 7)
    }
}

/// Retention: posts past the keeping time reduced to what keeps them counted; taken back exactly when removed later.
struct RetentionStoreTests {
    @Test(arguments: TestStore.available) func reducedPostsKeepTheirCountsLeaveTheDatasetsAndUncountExactly(
        store: TestStore
    ) async throws {
        let posts = BothStoresTests.posts()
        let searches = BothStoresTests.searches(of: posts)
        let t = try await store.fixture()
        try await BothStoresTests.run(searches, t)
        let before = try await BothStoresTests.readings(of: t)
        let cutoff = BothStoresTests.now.addingTimeInterval(-7 * 86_400).millisecondsSince1970
        var old: [KeptPost] = []
        while case let page = try await t.database.retentionCandidates(
            createdBefore: cutoff, after: old.last?.reference ?? 0, limit: 50), !page.isEmpty
        {
            old += page
        }
        let counted = Set(searches.flatMap(\.page).map(\.key))
        #expect(
            Set(old.map(\.key))
                == Set(posts.filter { $0.created.millisecondsSince1970 < cutoff }.map(\.key)).intersection(counted))
        let reduced = try await t.database.reducePosts(old.map(\.key), at: 1)
        #expect(reduced == old.count && reduced > 0)
        #expect(try await t.database.reducePosts(old.map(\.key), at: 2) == 0, "reduced once")
        var after = try await BothStoresTests.readings(of: t)
        #expect(after.conversations != before.conversations, "a reduced post keeps no author: it acts on no one")
        after.conversations = before.conversations
        #expect(after == before, "the counts stay as aggregates")
        #expect(try await t.database.storedPost(old[0].key) == nil)
        // Reduced before anything read the counts (on SQLite, pages still waiting to be added): the same readings.
        let unread = try await store.fixture()
        try await BothStoresTests.run(searches, unread)
        _ = try await unread.database.reducePosts(old.map(\.key), at: 1)
        #expect(try await BothStoresTests.readings(of: unread) == BothStoresTests.readings(of: t))
        let batches = try #require(
            try await TermPosts(database: t.database).batches(of: "a", window: .all, now: BothStoresTests.now))
        var expired = 0
        for try await batch in batches { expired += batch.count { $0.expired } }
        #expect(expired > 0)

        _ = try await t.database.removePosts(old.map(\.key))
        let recount = try await store.fixture()
        let gone = Set(old.map(\.key))
        try await BothStoresTests.run(searches.map { ($0.term, $0.page.filter { !gone.contains($0.key) }) }, recount)
        #expect(
            try await BothStoresTests.readings(of: t) == BothStoresTests.readings(of: recount),
            "what it named was kept for this: its counts, hours and pairs go down exactly")
    }
}

/// A tracked term's own keeping time (`track --keep`): its posts past it are reduced once no other term keeps them —
/// a term with no keeping time keeps what it counted, one whose keeping time has not passed too — on both stores.
struct TermRetentionStoreTests {
    static let now = BothStoresTests.now

    /// A post of `#kept` made `daysAgo` before `now`, naming a hashtag and a user of its own.
    static func post(_ id: Int, daysAgo: Double) -> Post {
        TestPosts.post(
            id, by: "keeper", "kept #kept #x\(id) @p\(id % 2)", created: now.addingTimeInterval(-daysAgo * 86_400))
    }

    /// Past 30 days, counted by `#kept` only; past 30 days, counted by `#other` too; within 30 days.
    static let (onlyKept, shared, recent) = (post(1, daysAgo: 40), post(2, daysAgo: 35), post(3, daysAgo: 2))

    @Test(arguments: TestStore.available) func aTermsKeepingTimeReducesOnlyThePostsNoOtherTermKeeps(
        store: TestStore
    ) async throws {
        let (now, onlyKept, shared, recent) = (Self.now, Self.onlyKept, Self.shared, Self.recent)
        let t = try await store.fixture()
        let tracked = TrackedTerms(database: t.database)
        _ = try await tracked.track("#kept", TrackingPlan(keepDays: 30), by: .owner)
        try await BothStoresTests.run([("#kept", [recent, shared, onlyKept]), ("#other", [shared])], t)
        let before = try await BothStoresTests.readings(of: t)

        func candidates() async throws -> Set<PostKey> {
            Set(
                try await t.database.termRetentionCandidates(
                    term: "#kept", keepDays: 30, now: now, after: 0, limit: 100
                ).map(\.key))
        }
        #expect(try await candidates() == [onlyKept.key], "#other keeps the shared post, and the recent one is young")
        #expect(try await t.database.reducePosts([onlyKept.key], at: 1) == 1)
        #expect(try await t.database.storedPost(onlyKept.key) == nil)
        #expect(try await t.database.storedPost(shared.key) != nil)
        #expect(try await BothStoresTests.readings(of: t) == before, "the counts stay as aggregates")
        #expect(try await candidates().isEmpty, "reduced once")

        // #other tracked with a keeping time it has not passed still keeps the shared post; one it has passed not.
        _ = try await tracked.track("#other", TrackingPlan(keepDays: 60), by: .owner)
        #expect(try await candidates().isEmpty)
        _ = try await tracked.track("#other", TrackingPlan(keepDays: 10), by: .owner)
        #expect(try await candidates() == [shared.key])
        #expect(try await tracked.term("#kept")?.plan.keepDays == 30)
    }

    /// `track --keep 30d --forget-counts`: every post of the term past it leaves the term's counts, whatever other
    /// terms keep — theirs stay — and a post no term counts any more is deleted: as if the term had never counted
    /// them, on both stores.
    @Test(arguments: TestStore.available) func aTermThatForgetsCountsIsAsIfItHadNeverCountedItsOlderPosts(
        store: TestStore
    ) async throws {
        let (now, onlyKept, shared, recent) = (Self.now, Self.onlyKept, Self.shared, Self.recent)
        func fixture(keeping kept: [Post]) async throws -> StoreFixture {
            let t = try await store.fixture()
            _ = try await TrackedTerms(database: t.database).track(
                "#kept", TrackingPlan(keepDays: 30, forgetsCounts: true), by: .owner)
            try await BothStoresTests.run([("#kept", kept), ("#other", [shared])], t)
            return t
        }
        let t = try await fixture(keeping: [recent, shared, onlyKept])
        #expect(try await TrackedTerms(database: t.database).term("#kept")?.plan.forgetsCounts == true)
        let old = try await t.database.termRetentionCandidates(
            term: "#kept", keepDays: 30, now: now, after: 0, limit: 100, forgetting: true)
        #expect(Set(old.map(\.key)) == [onlyKept.key, shared.key], "whatever #other keeps")
        let removed = try await t.database.removePosts(old.map(\.key), fromTerm: "#kept")
        #expect(removed.posts == 2 && removed.terms == ["#kept"])
        let recount = try await fixture(keeping: [recent])
        #expect(
            try await BothStoresTests.readings(of: t) == BothStoresTests.readings(of: recount),
            "#kept as if it had counted the recent post only; #other as it was")
        #expect(try await t.database.storedPost(onlyKept.key) == nil, "no term counts it: deleted")
        #expect(try await t.database.storedPost(shared.key) != nil, "#other still counts it")
        #expect(
            try await t.database.termRetentionCandidates(
                term: "#kept", keepDays: 30, now: now, after: 0, limit: 100, forgetting: true
            ).isEmpty)
        #expect(try await t.database.removePosts([shared.key], fromTerm: "#kept").posts == 0, "once")
    }
}
