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
            return interacting(
                TestPosts.post(
                    id, by: "poster\(id % 9)", (["text"] + named).joined(separator: " "),
                    created: now.addingTimeInterval(-hoursAgo * 3600)))
        }
    }

    /// Some of the posts reply to, quote or repost another (by id), some to no one known, some to themselves: the
    /// conversation networks have something to count.
    static func interacting(_ post: Post) -> Post {
        let id = Int(post.id)!
        let other = "poster\((id / 3) % 9)"
        let quoted = TestPosts.post(id + 10_000, by: other, "quoted")
        switch id % 6 {
        case 1, 2:
            return Post(
                id: post.id, created: post.created, author: post.author, text: post.text, mentions: post.mentions,
                inReplyToID: String(id / 3), inReplyToUser: id % 12 == 1 ? nil : other)
        case 3:
            return Post(
                id: post.id, created: post.created, author: post.author, text: post.text, mentions: post.mentions,
                quoted: quoted)
        case 4:
            return Post(
                id: post.id, created: post.created, author: TestPosts.author(other), text: post.text,
                mentions: post.mentions, repostedBy: post.author)
        default: return post
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
        /// Who replies to, quotes and reposts whom, in every window.
        var conversations: [String: [MentionNetwork?]] = [:]
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
            readings.conversations[term] = try await conversations(of: term, t)
            readings.sparklines[term] = try await t.trends.sparklines(term: term)
            readings.series[term] = try await t.trends.series(term: term, mention: "#swift")
            readings.origins[term] = try await TimeWindow.allCases.asyncMap { window in
                try await Origins(database: t.database).of(term, window: window, now: Self.now)
            }
        }
        return readings
    }

    static func conversations(of term: String, _ t: StoreFixture) async throws -> [MentionNetwork?] {
        var networks: [MentionNetwork?] = []
        for kind in NetworkKind.allCases where kind.isDirected {
            for window in TimeWindow.allCases {
                networks.append(
                    try await t.popularity.network(
                        for: term, NetworkOptions(kind: kind, window: window, top: 500), now: Self.now))
            }
        }
        return networks
    }

    @Test(.enabled(if: TestStore.postgresURL != nil, "PostgreSQL for the tests"))
    func theSameSearchesLeaveTheSameCountsOnBothStores() async throws {
        let searches = Self.searches(of: Self.posts())
        let sqlite = try await readings(after: searches, on: .sqlite)
        let postgres = try await readings(after: searches, on: .postgres)
        #expect(sqlite.recents.count == 4, "“A” and “  a ” are one term")
        #expect(sqlite.tables.values.allSatisfy { !$0[0].sections.allSatisfy(\.rows.isEmpty) })
        #expect(
            sqlite.conversations.values.allSatisfy {
                $0.compactMap { $0 }.filter { $0.options.window == .all }.allSatisfy { !$0.edges.isEmpty }
            }, "every term's replies, quotes and reposts")
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
