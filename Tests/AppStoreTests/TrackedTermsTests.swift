import AppStore
import Foundation
import Posts
import TestSupport
import Testing

/// Tracked terms in the store, on SQLite and PostgreSQL alike: plans, the limit, Recents that never push a tracked
/// term out, one claim per due term, and pages counted once with each source's place kept.
struct TrackedTermsTests {
    private func tracked(_ t: StoreFixture) -> TrackedTerms { TrackedTerms(database: t.database) }

    @Test(arguments: TestStore.available) func trackingAddsTheTermToRecentsAndKeepsItsPlan(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let plan = TrackingPlan(every: 30, sources: ["corpus", "mastodon"], backfill: 3)
        let term = try await tracked(t).track(" #Swift ", plan, now: start)
        #expect(term.term == "#Swift" && term.key == "#swift" && term.plan == plan)
        #expect(term.due == start && term.fetched == nil && term.posts == 0 && term.sources.isEmpty)
        #expect(try await t.recents.terms() == ["#Swift"])
        let again = try await tracked(t).track("#swift", TrackingPlan(every: 3600), now: start.addingTimeInterval(9))
        #expect(again.plan == TrackingPlan(every: 3600) && again.since == start, "a new plan, the same since")
        #expect(try await tracked(t).all().map(\.term) == ["#Swift"])
        #expect(try await tracked(t).untrack("#SWIFT"))
        #expect(try await !tracked(t).untrack("#swift"))
        #expect(try await tracked(t).all().isEmpty)
        #expect(try await t.recents.terms() == ["#Swift"], "untracked, still in Recents")
    }

    /// Deleting a tracked term from Recents ends its tracking, and the next term is not tracked: on SQLite a term
    /// deleted last leaves its id to the next one (an `INTEGER PRIMARY KEY` reuses the largest), which once inherited
    /// the deleted term's tracking.
    @Test(arguments: TestStore.available) func aTermDeletedFromRecentsTakesItsTrackingWithIt(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        try await tracked(t).track("#gone", TrackingPlan(every: 60))
        #expect(try await t.recents.delete("#gone"))
        #expect(try await tracked(t).all().isEmpty)
        _ = try await t.sessions.fetch("#next", at: .newest)
        #expect(try await tracked(t).all().isEmpty, "the next term is not tracked")
        #expect(try await tracked(t).term("#next") == nil)
    }

    @Test(arguments: TestStore.available) func aHundredAndFirstTermIsRefusedInOneSentence(store: TestStore) async throws
    {
        let t = try await store.fixture()
        for number in 0..<TrackingPlan.most { try await tracked(t).track("term \(number)", TrackingPlan()) }
        await #expect(throws: TrackingError.tooMany) { try await tracked(t).track("one more", TrackingPlan()) }
        try await tracked(t).track("term 7", TrackingPlan(every: 60))
        #expect(try await tracked(t).term("term 7")?.plan.every == 60, "a tracked term's plan may change")
    }

    @Test(arguments: TestStore.available) func trackedTermsStayInRecentsWhateverTheLimitPushesOut(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        try await tracked(t).track("kept", TrackingPlan())
        for number in 0...Recents.limit {
            t.source.enqueue([post(number + 1, "#a")])
            _ = try await t.sessions.fetch("term \(number)", at: .newest)
        }
        let terms = try await t.recents.terms()
        #expect(terms.count == Recents.limit + 1 && terms.contains("kept") && !terms.contains("term 0"))
        #expect(try await tracked(t).term("kept") != nil)
        #expect(try await t.recents.delete("kept"))
        #expect(try await tracked(t).all().isEmpty, "deleting a term from Recents stops its tracking")
    }

    @Test(arguments: TestStore.available) func aDueTermIsClaimedOnceUntilItsRunEnds(store: TestStore) async throws {
        let t = try await store.fixture()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try await tracked(t).track("#a", TrackingPlan(every: 60), now: start)
        try await tracked(t).track("#b", TrackingPlan(every: 60), now: start.addingTimeInterval(30))
        let early = try await tracked(t).claimDue(now: start.addingTimeInterval(10), lease: .seconds(120), limit: 10)
        #expect(early.map(\.term) == ["#a"], "#b is not due yet")
        let meanwhile = try await tracked(t).claimDue(
            now: start.addingTimeInterval(40), lease: .seconds(120), limit: 10)
        #expect(meanwhile.map(\.term) == ["#b"], "#a is held by its lease")
        try await tracked(t).finish(
            early[0], due: start.addingTimeInterval(70), fetched: start.addingTimeInterval(11), backfill: 0)
        let later = try await tracked(t).claimDue(now: start.addingTimeInterval(71), lease: .seconds(120), limit: 10)
        #expect(later.map(\.term) == ["#a"] && later[0].fetched == start.addingTimeInterval(11))
        let stale = try await tracked(t).claimDue(now: start.addingTimeInterval(400), lease: .seconds(120), limit: 10)
        #expect(Set(stale.map(\.term)) == ["#a", "#b"], "a lease that ran out is taken over")
        let only = try await tracked(t).claimDue(
            now: start.addingTimeInterval(600), lease: .seconds(120), limit: 10, only: ["#B"])
        #expect(only.map(\.term) == ["#b"])
    }

    @Test(arguments: TestStore.available) func concurrentClaimsShareTheDueTermsWithoutOverlap(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for number in 0..<40 { try await tracked(t).track("term \(number)", TrackingPlan(), now: start) }
        let claims = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await self.tracked(t).claimDue(
                        now: start.addingTimeInterval(1), lease: .seconds(120), limit: 10
                    )
                    .map(\.key)
                }
            }
            return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
        }
        #expect(claims.count == 40 && Set(claims).count == 40, "every due term claimed exactly once")
    }

    @Test(arguments: TestStore.available) func aCollectedPageCountsOnceAndKeepsTheSourcesPlace(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let term = try await tracked(t).track("T", TrackingPlan())
        t.source.enqueue([post(3, "#a @b"), post(2, "#a")], [post(3, "#a @b"), post(4, "#a")])
        for _ in 0..<2 {
            let page = try await t.sessions.sources.search(MergedRequest(query: "T", position: .newest))
            var source = term.source("corpus")
            source.newer = .newer(than: page.posts[0].id)
            #expect(try await tracked(t).collect(term, page: page, at: .newest, source: source))
        }
        #expect(try await t.table("T") == ["Hashtags": ["#a 3"], "Users": []], "post 3 counted once")
        let kept = try await tracked(t).term("T")
        #expect(kept?.posts == 3 && kept?.source("corpus").newer == .newer(than: "4"))
        var failing = TrackedSource(name: "mastodon", error: "Mastodon: rate limited.", failures: 2)
        failing.retryAt = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try await tracked(t).collect(term, page: nil, at: .newest, source: failing))
        #expect(try await tracked(t).term("T")?.source("mastodon") == failing)
        #expect(try await tracked(t).untrack("T"))
        let page = try await t.sessions.sources.search(MergedRequest(query: "T", position: .newest))
        #expect(try await !tracked(t).collect(term, page: page, at: .newest, source: failing), "no longer tracked")
    }
}
