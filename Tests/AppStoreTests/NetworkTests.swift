import AppStore
import Foundation
import Posts
import TestSupport
import Testing

/// Co-mentions: every pair of a post's distinct mentions counted once per (term, post), in total and by the hour,
/// and what popularity, networks and windows read from them.
struct NetworkTests {
    private static let now = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01 00:00 UTC

    /// A post `hoursAgo` hours before `now`, whose text is its mentions.
    private func post(_ id: Int, hoursAgo: Double, _ text: String) -> Post {
        TestPosts.post(id, by: "poster", text, created: Self.now.addingTimeInterval(-hoursAgo * 3600))
    }

    private let everything = NetworkOptions(top: 500)

    /// The pairs of some posts counted independently: each post once, its distinct mentions folded to lower case,
    /// the first 30 of them.
    private func recount(_ posts: [Post]) -> [String: Int] {
        var seen = Set<PostKey>()
        var weights: [String: Int] = [:]
        for post in posts where seen.insert(post.key).inserted {
            var keys: [String] = []
            for mention in post.mentions where mention.kind != .url {
                let key = mention.keyword.lowercased()
                if !keys.contains(key) { keys.append(key) }
            }
            let named = keys.prefix(30)
            for (offset, one) in named.enumerated() {
                for other in named.dropFirst(offset + 1) {
                    weights[[one, other].sorted().joined(separator: " "), default: 0] += 1
                }
            }
        }
        return weights
    }

    /// The network's edges as "a b" → weight, the mentions lower-cased.
    private func edges(_ network: MentionNetwork?) -> [String: Int] {
        guard let network else { return [:] }
        return Dictionary(
            uniqueKeysWithValues: network.edges.map { edge in
                (
                    [network.nodes[edge.source].mention.lowercased(), network.nodes[edge.target].mention.lowercased()]
                        .sorted().joined(separator: " "), edge.weight
                )
            })
    }

    @Test(arguments: TestStore.available) func pairWeightsEqualARecountOfThePostsCountedExactlyOnce(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let page = { (ids: ClosedRange<Int>) in
            ids.reversed().map { id in
                self.post(id, hoursAgo: Double(id % 50), "#all #M\(id % 7) @u\(id % 5) #m\(id % 7) #x\(id % 3)")
            }
        }
        // Overlapping pages, a page fetched again, and a page every post of which another term stored first.
        t.source.enqueue(page(1...60), page(40...120), page(1...60), page(100...160))
        _ = try await t.sessions.fetch("T", at: .newest, count: 100)
        _ = try await t.sessions.fetch("T", at: .newest, count: 100)
        _ = try await t.sessions.fetch("T", at: .newest, count: 100)
        _ = try await t.sessions.fetch("U", at: .newest, count: 100)
        let counted = page(1...120)
        let network = try await t.popularity.network(for: "t", everything, now: Self.now)
        #expect(edges(network) == recount(counted))
        #expect(network?.nodes.first == MentionNetwork.Node(mention: "#all", kind: .hashtags, count: 120))
        #expect(edges(try await t.popularity.network(for: "U", everything, now: Self.now)) == recount(page(100...160)))
    }

    @Test(arguments: TestStore.available) func aPostPairsItsFirstThirtyDistinctMentionsOnly(
        store: TestStore
    )
        async throws
    {
        let t = try await store.fixture()
        let text = (1...40).map { "#h\($0)" }.joined(separator: " ") + " #H1 @z"
        t.source.enqueue([post(1, hoursAgo: 1, text)])
        _ = try await t.sessions.fetch("T", at: .newest)
        let network = try await t.popularity.network(for: "T", everything, now: Self.now)
        #expect(network?.edges.count == 30 * 29 / 2)
        #expect(edges(network) == recount([post(1, hoursAgo: 1, text)]))
    }

    @Test(arguments: TestStore.available) func aPushedOutOrDeletedTermTakesItsPairsWithIt(
        store: TestStore
    )
        async throws
    {
        let t = try await store.fixture()
        t.source.enqueue(
            [post(2, hoursAgo: 1, "#a #b"), post(1, hoursAgo: 2, "#a #b @c")], [post(3, hoursAgo: 1, "#a #b")])
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(try await t.recents.delete("T"))
        _ = try await t.sessions.fetch("T", at: .newest)
        #expect(edges(try await t.popularity.network(for: "T", everything, now: Self.now)) == ["#a #b": 1])
    }

    @Test(arguments: TestStore.available) func eachRowNamesItsThreeStrongestPartnersTiesAlphabetical(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([
            post(6, hoursAgo: 1, "#a #e"), post(5, hoursAgo: 1, "#a #d @b"), post(4, hoursAgo: 1, "#a #d @b"),
            post(3, hoursAgo: 1, "#a #c @b"), post(2, hoursAgo: 1, "#a #c"), post(1, hoursAgo: 1, "#a #e"),
        ])
        _ = try await t.sessions.fetch("T", at: .newest)
        for window in [TimeWindow.all, .day] {
            let table = try await t.popularity.table(for: "T", window: window, now: Self.now)
            let a = try #require(table.rows(.hashtags).first)
            #expect(a == PopularMention(mention: "#a", count: 6))
            #expect(table.partners(of: a) == ["@b", "#c", "#d"], "\(window)")
            let b = try #require(table.rows(.users).first)
            #expect(table.partners(of: b) == ["#a", "#d", "#c"], "\(window)")
        }
    }

    /// PostgreSQL keeps each row's strongest partners as pages are counted, merging the partners a page names with
    /// those the row held; a window reads them from the pairs. With every post in the window, both must agree after
    /// each page: whole pages, pages partly counted already, ties, partners overtaking one another.
    @Test(arguments: TestStore.available) func theStrongestPartnersFollowTheWeightsPageAfterPage(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let mentions = ["#a", "#b", "#c", "@d", "#e", "@f", "#g", "#h"]
        let text = { (id: Int) in
            mentions.indices.filter { (id * 7 + $0 * $0 * 3 + id / 9) % 5 < 2 }.map { mentions[$0] }
                .joined(separator: " ")
        }
        for page in 0..<9 {
            // Each page repeats the last three posts of the one before: those are partly counted already.
            let ids = (page * 12 - 2)...(page * 12 + 12)
            t.source.enqueue(ids.filter { $0 > 0 }.reversed().map { post($0, hoursAgo: Double(1 + $0 % 20), text($0)) })
            _ = try await t.sessions.fetch("T", at: .newest, count: 100)
            let all = try await t.popularity.table(for: "T", window: .all, now: Self.now)
            let day = try await t.popularity.table(for: "T", window: .day, now: Self.now)
            #expect(all.sections.map(\.rows) == day.sections.map(\.rows), "page \(page)")
            for row in all.sections.flatMap(\.rows) {
                #expect(all.partners(of: row) == day.partners(of: row), "page \(page), \(row.mention)")
            }
        }
    }

    @Test(arguments: TestStore.available) func windowsCountThePostsOfTheirOwnTimesAndCompareWithTheWindowBefore(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([
            post(9, hoursAgo: 0.5, "#up #new #same"), post(8, hoursAgo: 2, "#up #new"),
            post(7, hoursAgo: 23.5, "#up #same #down"),
            post(6, hoursAgo: 24.5, "#up #same #down"), post(5, hoursAgo: 30, "#down #old"),
            post(4, hoursAgo: 40, "#down #old"), post(3, hoursAgo: 24 * 10, "#old #ancient"),
            post(2, hoursAgo: 24 * 12, "#ancient #old"), post(1, hoursAgo: -0.5, "#up #new"),
        ])
        _ = try await t.sessions.fetch("T", at: .newest)
        let day = try await t.popularity.table(for: "T", window: .day, now: Self.now)
        let rows = day.rows(.hashtags)
        #expect(rows.map(\.mention) == ["#up", "#new", "#same"], "a post dated just ahead of now counts in the window")
        #expect(rows.map { day.momentum(of: $0) } == [.rising(by: 3), .new, .rising(by: 1)])
        let week = try await t.popularity.table(for: "T", window: .week, now: Self.now)
        #expect(week.rows(.hashtags).map(\.mention) == ["#up", "#down", "#new", "#same", "#old"])
        #expect(week.rows(.hashtags).map { week.momentum(of: $0) } == [.new, .new, .new, .new, .steady])
        let all = try await t.popularity.table(for: "T", window: .all, now: Self.now)
        #expect(all.rows(.hashtags).first.map { all.momentum(of: $0) } == .some(nil))
        #expect(all.rows(.hashtags).map(\.mention).contains("#ancient"))

        let dayNetwork = try await t.popularity.network(for: "T", NetworkOptions(window: .day, top: 500), now: Self.now)
        #expect(
            edges(dayNetwork)
                == recount([
                    post(9, hoursAgo: 0.5, "#up #new #same"), post(8, hoursAgo: 2, "#up #new"),
                    post(7, hoursAgo: 23.5, "#up #same #down"), post(1, hoursAgo: -0.5, "#up #new"),
                ]))
    }

    @Test(arguments: TestStore.available) func theNetworkTakesTheTopNodesLeavesOutTheTermsHashtagsAndLightEdges(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([
            post(5, hoursAgo: 1, "#swift #a #b"), post(4, hoursAgo: 1, "#swift #a #b"),
            post(3, hoursAgo: 1, "#swift #a #c"),
            post(2, hoursAgo: 1, "#Swift #c @d"), post(1, hoursAgo: 1, "#swift @e"),
        ])
        _ = try await t.sessions.fetch("#swift", at: .newest)
        let network = try #require(
            try await t.popularity.network(
                for: "#SWIFT", NetworkOptions(top: 3, minimumWeight: 2, leavesOutTermHashtags: true), now: Self.now))
        #expect(network.term == "#swift")
        #expect(network.nodes.map(\.mention) == ["#a", "#b", "#c"])
        #expect(edges(network) == ["#a #b": 2])
        let whole = try #require(try await t.popularity.network(for: "#swift", NetworkOptions(top: 2), now: Self.now))
        #expect(whole.nodes.map(\.mention) == ["#swift", "#a"] && edges(whole) == ["#a #swift": 3])
        #expect(try await t.popularity.network(for: "not searched", everything, now: Self.now) == nil)
    }

    @Test(arguments: TestStore.available) func aTimelineCountsEachNodeAndEdgeByDayAndByWeekFromMonday(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        // 2025-01-01 was a Wednesday: the posts fall on Tuesday 31 December and on Monday 23 December.
        t.source.enqueue([
            post(3, hoursAgo: 1, "#a #b"), post(2, hoursAgo: 2, "#a #b"), post(1, hoursAgo: 24 * 8 + 1, "#a #b"),
        ])
        _ = try await t.sessions.fetch("T", at: .newest)
        let day = try #require(
            try await t.popularity.network(for: "T", NetworkOptions(timeline: .day), now: Self.now))
        let days = day.edgeSpells.first?.map { "\($0.start.formatted(.iso8601)) \($0.value)" }
        #expect(days == ["2024-12-23T00:00:00Z 1", "2024-12-31T00:00:00Z 2"])
        let week = try #require(
            try await t.popularity.network(for: "T", NetworkOptions(timeline: .week), now: Self.now))
        #expect(
            week.nodeSpells.first?.map(\.start.description) == [
                "2024-12-23 00:00:00 +0000", "2024-12-30 00:00:00 +0000",
            ])
        #expect(week.nodeSpells.first?.map(\.value) == [1, 2])
        #expect(week.edgeSpells.first?.last?.end.description == "2025-01-06 00:00:00 +0000")
    }
}
