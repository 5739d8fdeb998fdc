import AppStore
import Foundation
import Posts
import TestSupport
import Testing

/// How often a term's mentions were named over time, by the posts' own times, adding up to the counts.
struct TrendTests {
    /// A post `hours` after 2025-01-01 00:00 UTC (hour 481,344 since 1970) whose text is its mentions.
    private func post(_ id: Int, hours: Double, _ text: String) -> Post {
        TestPosts.post(id, by: "poster", text, created: Self.start.addingTimeInterval(hours * 3600))
    }

    private static let start = Date(timeIntervalSince1970: 1_735_689_600)

    private func at(hours: Int) -> Date { Self.start.addingTimeInterval(Double(hours) * 3600) }

    /// A page writes more rows to every table than one statement binds (`ValuesList.chunk`): 100 posts, 171 mentions,
    /// 300 trend rows; the second page is partly counted already, the third all stored already.
    @Test(arguments: TestStore.available) func pagesOfMoreRowsThanAStatementTakesCountEveryPostOnce(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let page = { (ids: ClosedRange<Int>) in
            ids.reversed().map { self.post($0, hours: Double($0), "#all #m\($0 % 80) @u\($0 % 90)") }
        }
        t.source.enqueue(page(1...100), page(71...170), page(1...100))
        _ = try await t.sessions.fetch("T", at: .newest, count: 100)
        _ = try await t.sessions.fetch("T", at: .newest, count: 100)
        _ = try await t.sessions.fetch("U", at: .newest, count: 100)
        let table = try await t.table("T")
        #expect(table["Hashtags"]?.first == "#all 170")
        #expect(table["Hashtags"]?.contains("#m1 3") == true && table["Users"]?.contains("@u1 2") == true)
        let series = try await t.trends.series(term: "T", mention: "#all", bucket: .hour)
        #expect(series.points.count == 170 && series.total == 170)
        #expect(try await t.table("U")["Hashtags"]?.first == "#all 100")
    }

    @Test(arguments: TestStore.available) func aSeriesCountsEachPostInTheHourOfItsOwnTimeAndAddsUpToTheCount(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([
            post(4, hours: 5.9, "#a #A"), post(3, hours: 5.1, "#a @u"), post(2, hours: 2.5, "#a"),
            post(1, hours: 0.2, "@u"),
        ])
        _ = try await t.sessions.fetch("T", at: .newest)
        let series = try await t.trends.series(term: "t", mention: "#A", bucket: .hour)
        #expect(
            series.points == [TrendPoint(start: at(hours: 2), count: 1), TrendPoint(start: at(hours: 5), count: 2)])
        #expect(series.mention == "#a" && series.kind == .hashtags && series.term == "T")
        let count = try await t.popularity.table(for: "T").rows(.hashtags).first?.count
        #expect(series.total == count)
        #expect(series.latest == at(hours: 5))
    }

    @Test(arguments: TestStore.available) func postsFetchedAgainOrByAnotherPageAreNotCountedTwice(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let posts = [post(2, hours: 1, "#a"), post(1, hours: 0, "#a")]
        t.source.enqueue(posts, posts + [post(3, hours: 0.5, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        _ = try await t.sessions.fetch("T", at: .newest)
        let series = try await t.trends.series(term: "T", mention: "#a", bucket: .hour)
        #expect(series.points.map(\.count) == [2, 1])
    }

    @Test(arguments: TestStore.available) func daysAreUTCDaysAndTheBucketFitsTheSpanWhenNoneIsAsked(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(3, hours: 50, "#a"), post(2, hours: 23.9, "#a"), post(1, hours: 0, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        let days = try await t.trends.series(term: "T", mention: "#a", bucket: .day)
        #expect(days.points == [TrendPoint(start: at(hours: 0), count: 2), TrendPoint(start: at(hours: 48), count: 1)])
        #expect(try await t.trends.series(term: "T", mention: "#a").bucket == .day)
        t.source.enqueue([post(5, hours: 3, "#b"), post(4, hours: 1, "#b")])
        _ = try await t.sessions.fetch("U", at: .newest)
        #expect(try await t.trends.series(term: "U", mention: "#b").bucket == .hour)
    }

    @Test(arguments: TestStore.available) func aWindowHasEveryBucketWithEmptyOnesAsZero(store: TestStore) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(2, hours: 3, "#a"), post(1, hours: 0, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        let series = try await t.trends.series(term: "T", mention: "#a", bucket: .hour)
        #expect(series.window(length: 5, endingAt: at(hours: 3)).map(\.count) == [0, 1, 0, 0, 1])
        #expect(series.window(length: 5, endingAt: at(hours: 3)).first?.start == at(hours: -1))
    }

    @Test(arguments: TestStore.available) func unknownTermsAndMentionsHaveEmptySeries(store: TestStore) async throws {
        let t = try await store.fixture()
        let nowhere = try await t.trends.series(term: "nowhere", mention: "#a")
        #expect(nowhere.points.isEmpty && !nowhere.isInRecents)
        t.source.enqueue([post(1, hours: 0, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        let missing = try await t.trends.series(term: "T", mention: "#nothing")
        #expect(missing.points.isEmpty && missing.kind == nil && missing.mention == "#nothing" && missing.isInRecents)
        t.source.enqueue([post(2, hours: 0, "#elsewhere")])
        _ = try await t.sessions.fetch("U", at: .newest)
        let otherTerms = try await t.trends.series(term: "T", mention: "#Elsewhere")
        #expect(otherTerms.kind == nil && otherTerms.mention == "#Elsewhere", "counted by another term only")
        #expect(try await t.trends.sparklines(term: "nowhere") == .none)
    }

    @Test(arguments: TestStore.available) func sparklinesShowEveryMentionOverTheSameLastBuckets(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(3, hours: 20, "#a"), post(2, hours: 19, "#a #b"), post(1, hours: 2, "#b")])
        _ = try await t.sessions.fetch("T", at: .newest)
        let sparklines = try await t.trends.sparklines(term: "T", buckets: 4)
        #expect(sparklines.bucket == .hour && sparklines.end == at(hours: 20))
        #expect(sparklines.counts(for: "#A") == [0, 0, 1, 1])
        #expect(sparklines.counts(for: "#b") == [0, 0, 1, 0])
        #expect(sparklines.counts(for: "#c") == [0, 0, 0, 0])
    }

    @Test(arguments: TestStore.available) func aPostDatedBefore1970CountsInTheFirstHour(store: TestStore) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(1, hours: -500_000, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(
            try await t.trends.series(term: "T", mention: "#a", bucket: .day).points == [
                TrendPoint(start: Date(timeIntervalSince1970: 0), count: 1)
            ])
    }

    @Test(arguments: TestStore.available) func aTermThatLeavesRecentsTakesItsTrendsWithIt(store: TestStore) async throws
    {
        let t = try await store.fixture()
        t.source.enqueue([post(1, hours: 0, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        try await t.recents.delete("T")
        t.source.enqueue([post(2, hours: 1, "#a")])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(
            try await t.trends.series(term: "T", mention: "#a", bucket: .hour).points == [
                TrendPoint(start: at(hours: 1), count: 1)
            ])
    }
}
