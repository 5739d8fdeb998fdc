import Foundation
import Mustache
import Smashtag
import Testing
import Twitter
@testable import SmashtagWeb

/// While both renderers exist: every page, from view models over the demo and hostile tweets, comes out of the typed
/// renderer as it came out of the Mustache templates, whitespace aside.
@Suite struct RendererComparisonTests {
    @Test func everyPageRendersAsTheTemplatesDid() async throws {
        let site = try await WebFixture.site()
        for (template, view) in try await Self.views(site) {
            let old = try #require(site.templates.render(view, withTemplate: template), "\(template)")
            let new = String(decoding: (view as! any PageView).rendered().bytes, as: UTF8.self)
            #expect(Self.normalized(new) == Self.normalized(old), "\(template): \(Self.firstDifference(Self.normalized(new), Self.normalized(old)))")
        }
    }

    /// Whitespace runs as one space, none between tags or before a tag's end.
    static func normalized(_ html: String) -> String {
        html.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: "> <", with: "><").replacingOccurrences(of: " >", with: ">")
    }

    static func firstDifference(_ a: String, _ b: String) -> String {
        let index = zip(a, b).prefix { $0 == $1 }.count
        return "new …\(a.dropFirst(max(0, index - 60)).prefix(120))… old …\(b.dropFirst(max(0, index - 60)).prefix(120))…"
    }

    static func views(_ site: Site) async throws -> [(String, Any)] {
        let term = "#" + WebFixture.hostileTag
        let hostile = try await site.sessions.fetch(term, at: .newest)
        let demo = try await site.sessions.fetch(site.defaultQuery, at: .newest, count: 25)
        let withImages = try #require(demo.tweets.first { !$0.media.isEmpty && $0.mentions.count > 1 })
        let table = try await Popularity(database: site.database).table(for: term)
        let pages: [(String, Any)] = [
            (Page.search, SearchPageView(query: term, tab: .search, back: nil, isRoot: true, outcome: .success(hostile), isNewerOnly: false, here: "/search?q=%23x")),
            (Page.search, SearchPageView(query: site.defaultQuery, tab: .recents, back: "/recents", isRoot: false, outcome: .success(demo), isNewerOnly: false, here: "/recents/search?q=a")),
            (Page.search, SearchPageView(query: "a", tab: .search, back: "/search", isRoot: false, outcome: .success(SearchPage(tweets: [], newer: SearchRequest(query: "a"), older: nil)), isNewerOnly: true, here: "/search/search?q=a")),
            (Page.search, SearchPageView(query: "<b>", tab: .search, back: nil, isRoot: true, outcome: .failure(SearchFailure(message: "Rate limited <until> 14:05.")), isNewerOnly: false, here: "/search?q=%3Cb%3E")),
            (Page.tweet, MentionsPageView(try #require(hostile.tweets.first { $0.id == WebFixture.hostileID }), tab: .search, back: "/search", here: "/search/tweets/1")),
            (Page.tweet, MentionsPageView(withImages, tab: .recents, back: nil, here: "/recents/tweets/2")),
            (Page.recents, RecentsPageView(terms: [term, "<script>alert(1)</script>", "\"quoted\" 'single'"], csrf: "0123456789abcdef0123456789abcdef")),
            (Page.recents, RecentsPageView(terms: [], csrf: "0123456789abcdef0123456789abcdef")),
            (Page.popularity, PopularityPageView(table, tab: .recents, back: "/recents", here: "/recents/popularity?term=x")),
            (Page.popularity, PopularityPageView(PopularityTable(term: "none", sections: []), tab: .search, back: nil, here: "/search/popularity?term=none")),
            (Page.images, ImagesPageView(query: site.defaultQuery, tweets: demo.tweets, tab: .search, back: "/search", here: "/search/images")),
            (Page.images, ImagesPageView(query: "none", tweets: [], tab: .search, back: nil, here: "/search/images")),
            (Page.viewer, ViewerPageView(chrome: Chrome(title: "Image", tab: .search, back: "/search", isRoot: false), source: "/demo/images/1-0-400x300.svg")),
            (Page.error, ErrorPageView(chrome: Chrome(title: "Not available", tab: .search, isRoot: false), message: "There is nothing <here>.")),
        ]
        return pages
    }
}
