import Foundation
import Posts
import Testing

/// A source over a fixed list of posts (newest first) that pages as the real ones do: newer pages hold the posts
/// just after the one named, older pages the ones just before it.
private struct ListSource: PostSource {
    let posts: [Post]

    func search(_ request: SearchRequest) async throws -> SearchPage {
        let page: [Post]
        var hasMore = false
        switch request.position {
        case .newest:
            page = Array(posts.prefix(request.count))
            hasMore = posts.count > request.count
        case .newer(let id):
            let newer = posts.prefix { $0.id != id }
            page = Array(newer.suffix(request.count))
        case .older(let id, _):
            let older = posts.drop { $0.id != id }.dropFirst()
            page = Array(older.prefix(request.count))
            hasMore = older.count > request.count
        }
        return SearchPage(
            posts: page, newer: request.newer(after: page), older: request.older(after: page, hasMore: hasMore))
    }
}

private struct FailingSource: PostSource {
    struct Refused: ExplainedError {
        var description: String { "example.social is down; try again later." }
    }

    func search(_ request: SearchRequest) async throws -> SearchPage { throw Refused() }
}

/// Posts at minutes `minutes` of one network, newest first; the id is the network's letter and the minute.
private func posts(_ network: Network, _ minutes: [Int]) -> [Post] {
    minutes.sorted(by: >).map { minute in
        Post(
            network: network, id: "\(network.rawValue.prefix(1))\(minute)",
            created: Date(timeIntervalSince1970: Double(minute) * 60),
            author: Author(handle: "a", name: "A"), text: "\(minute)")
    }
}

struct SourceSetTests {
    let sources = SourceSet([
        NamedSource(name: "corpus", title: "Corpus", source: ListSource(posts: posts(.twitter, [1, 4, 5, 9]))),
        NamedSource(name: "mastodon", title: "Mastodon", source: ListSource(posts: posts(.mastodon, [2, 3, 6, 7, 8]))),
    ])

    private func minutes(_ page: MergedPage) -> [String] { page.posts.map(\.text) }

    @Test func pagesMergeNewestFirstAndOlderPagesLeaveNoGapAndNoRepeat() async throws {
        var page = try await sources.search(MergedRequest(query: "q", count: 3))
        var seen = minutes(page)
        #expect(seen == ["9", "8", "7"])
        while let older = Self.older(page) {
            page = try await sources.search(MergedRequest(query: "q", count: 3, position: older))
            seen += minutes(page)
        }
        #expect(seen == ["9", "8", "7", "6", "5", "4", "3", "2", "1"])
    }

    @Test func newerPagesHoldThePostsJustAfterWhatWasShown() async throws {
        let newer: MergedPosition = .newer(["corpus": .newer(than: "t1"), "mastodon": .newer(than: "m2")])
        let page = try await sources.search(MergedRequest(query: "q", count: 3, position: newer))
        #expect(minutes(page) == ["5", "4", "3"])
        #expect(page.cursors["corpus"]?.newer.position == .newer(than: "t5"))
        #expect(page.cursors["mastodon"]?.newer.position == .newer(than: "m3"))
    }

    @Test func aFailingSourceIsNamedAndTheOthersStillShow() async throws {
        let set = SourceSet(sources.sources + [NamedSource(name: "down", title: "Down", source: FailingSource())])
        let page = try await set.search(MergedRequest(query: "q", count: 3))
        #expect(minutes(page) == ["9", "8", "7"])
        #expect(page.failures.map(\.message) == ["example.social is down; try again later."])
        #expect(page.cursors["down"]?.older?.position == .newest, "asked again from where it was")
    }

    @Test func whenEverySourceFailsEachSaysWhy() async throws {
        let set = SourceSet([
            NamedSource(name: "a", title: "A", source: FailingSource()),
            NamedSource(name: "b", title: "B", source: FailingSource()),
        ])
        await #expect(throws: SourcesFailed.self) { try await set.search(MergedRequest(query: "q")) }
    }

    @Test func aPostTwoSourcesFoundIsShownOnce() async throws {
        let same = posts(.twitter, [1, 2])
        let set = SourceSet([
            NamedSource(name: "corpus", title: "Corpus", source: ListSource(posts: same)),
            NamedSource(name: "x", title: "X", source: ListSource(posts: same)),
        ])
        let page = try await set.search(MergedRequest(query: "q"))
        #expect(minutes(page) == ["2", "1"])
    }

    private static func older(_ page: MergedPage) -> MergedPosition? {
        let positions = page.cursors.compactMapValues { $0.older?.position }
        return positions.isEmpty ? nil : .older(positions)
    }
}
