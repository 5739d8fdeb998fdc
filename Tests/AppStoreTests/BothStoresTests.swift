import AppStore
import Foundation
import Posts
import TestSupport
import Testing

/// The counter is written twice: `SQLite/SQLiteCounter` in Swift, the reference, and PostgreSQL's functions
/// (`PostgreSQL/PostgresFunctions`), which count a page in the statement that records it. The same random searches
/// on both stores must leave the same Recents, tables, windows, trends, sparklines, networks and origins.
struct BothStoresTests {
    static let now = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01 00:00 UTC
    private static let vocabulary = [
        "#Swift", "#swift", "#rust", "#go", "#café", "#東京", "#x1", "@alice", "@Bob", "@carol", "@dave", "#SWIFT",
    ]

    /// 300 posts over three weeks, each naming up to six mentions (some twice, in other cases).
    static func posts() -> [Post] {
        var random = RepeatableRandom(seed: 48)
        return (1...300).map { id in
            let named = (0..<Int.random(in: 0...6, using: &random)).map { _ in vocabulary.randomElement(using: &random)!
            }
            let hoursAgo = Double.random(in: 0...(21 * 24), using: &random)
            return TestPosts.post(
                id, by: "poster\(id % 9)", (["text"] + named).joined(separator: " "),
                created: now.addingTimeInterval(-hoursAgo * 3600))
        }
    }

    /// Forty searches of five terms, each a page of overlapping, repeated posts, newest first.
    static func searches(of posts: [Post]) -> [(term: String, page: [Post])] {
        var random = RepeatableRandom(seed: 4_848)
        let terms = ["A", "b", "  a ", "C d", "e"]
        return (0..<40).map { _ in
            let start = Int.random(in: 0..<posts.count, using: &random)
            let length = Int.random(in: 1...60, using: &random)
            let page = posts[start..<min(posts.count, start + length)].sorted { $0.created > $1.created }
            return (terms.randomElement(using: &random)!, Array(page))
        }
    }

    /// Everything the app reads of what was counted.
    struct Readings: Equatable {
        var recents: [String] = []
        var tables: [String: [PopularityTable]] = [:]
        var networks: [String: MentionNetwork?] = [:]
        var sparklines: [String: Sparklines] = [:]
        var series: [String: TrendSeries] = [:]
        var origins: [String: [TermOrigins?]] = [:]
    }

    private func readings(after searches: [(term: String, page: [Post])], on store: TestStore) async throws -> Readings
    {
        let t = try await store.fixture()
        try await Self.run(searches, t)
        return try await Self.readings(of: t)
    }

    static func run(_ searches: [(term: String, page: [Post])], _ t: StoreFixture) async throws {
        for search in searches {
            t.source.enqueue(search.page)
            _ = try await t.sessions.fetch(search.term, at: .newest, count: 100)
        }
    }

    static func readings(of t: StoreFixture) async throws -> Readings {
        var readings = Readings(recents: try await t.recents.terms())
        for term in readings.recents {
            readings.tables[term] = try await TimeWindow.allCases.asyncMap { window in
                try await t.popularity.table(for: term, window: window, now: Self.now)
            }
            readings.networks[term] = try await t.popularity.network(for: term, NetworkOptions(top: 500), now: Self.now)
            readings.sparklines[term] = try await t.trends.sparklines(term: term)
            readings.series[term] = try await t.trends.series(term: term, mention: "#swift")
            readings.origins[term] = try await TimeWindow.allCases.asyncMap { window in
                try await Origins(database: t.database).of(term, window: window, now: Self.now)
            }
        }
        return readings
    }

    @Test(.enabled(if: TestStore.postgresURL != nil, "PostgreSQL for the tests"))
    func theSameSearchesLeaveTheSameCountsOnBothStores() async throws {
        let searches = Self.searches(of: Self.posts())
        let sqlite = try await readings(after: searches, on: .sqlite)
        let postgres = try await readings(after: searches, on: .postgres)
        #expect(sqlite.recents.count == 4, "“A” and “  a ” are one term")
        #expect(sqlite.tables.values.allSatisfy { !$0[0].sections.allSatisfy(\.rows.isEmpty) })
        #expect(sqlite == postgres)
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
