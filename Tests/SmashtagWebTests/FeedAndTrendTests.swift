import AppStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Posts
import Testing

@testable import SmashtagWeb

/// Feeds and trends through the whole router: a search's RSS feed, a mention's trend as JSON and as a chart page, and
/// the
/// Popularity page's sparklines and live rows.
@Suite struct FeedAndTrendTests {
    static let feed = "/search/feed?q=\(RouteTests.encodedTerm)"

    @Test func aFeedHasTheNewestPostsAsItemsWithTheirTextAsEscapedHTML() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: Self.feed, method: .get, headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/rss+xml; charset=utf-8")
            let xml = response.text
            let base = try #require(
                xml.firstMatch(of: /<atom:link href="(https:\/\/[^\/"]+)\/search\/feed\?q=%23xsstest" rel="self"/)?.1)
            #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\""))
            #expect(xml.components(separatedBy: "<item>").count == 3)
            #expect(xml.contains("<guid isPermaLink=\"false\">twitter:\(WebFixture.hostileID)</guid>"))
            #expect(xml.contains("<link>https://x.com/i/status/\(WebFixture.hostileID)</link>"))
            #expect(xml.contains("<pubDate>Sat, 01 Mar 2025 12:01:00 GMT</pubDate>"), "newest first, RFC 822")
            #expect(xml.contains("<dc:creator>&lt;img src=x onerror=alert(3)&gt; (@mallory)</dc:creator>"))
            // The description is HTML carried as text: its markup escaped once, the post's own text twice.
            #expect(xml.contains("&lt;a href=&quot;\(base)/search?q=%23xsstest&quot;&gt;#xsstest&lt;/a&gt;"))
            #expect(xml.contains("&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;"))
            #expect(!xml.contains("<script") && !xml.contains("javascript:"))
            #expect(
                xml.contains(
                    """
                    &lt;img src=&quot;\(base)/demo/images/1-0-400x300.svg&quot; alt=&quot;Image 2 of \
                    @mallory&amp;#39;s post&quot; width=&quot;600&quot; height=&quot;450&quot;&gt;
                    """
                ))
        }
    }

    @Test func aReaderThatHasTheFeedGetsNotModified() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let first = try await client.execute(uri: Self.feed, method: .get)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("W/\"") && first.headers[.lastModified] == "Sat, 01 Mar 2025 12:01:00 GMT")
            let again = try await client.execute(uri: Self.feed, method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.readableBytes == 0 && again.headers[.eTag] == tag)
            let since = try await client.execute(
                uri: Self.feed, method: .get, headers: [.ifModifiedSince: "Sat, 01 Mar 2025 13:00:00 GMT"])
            #expect(since.status == .notModified)
            let older = try await client.execute(
                uri: Self.feed, method: .get, headers: [.ifModifiedSince: "Sat, 01 Mar 2025 12:00:00 GMT"])
            #expect(older.status == .ok)
            let otherTag = try await client.execute(
                uri: Self.feed, method: .get,
                headers: [.ifNoneMatch: "W/\"0\"", .ifModifiedSince: "Sat, 01 Mar 2025 13:00:00 GMT"])
            #expect(otherTag.status == .ok, "If-None-Match decides when it is sent")
        }
    }

    @Test func pollingCountsLikeASearchWhileTheTermIsInRecentsAndNeverMovesIt() async throws {
        let (app, site) = try await WebFixture.application()
        let recents = Recents(database: site.database)
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: Self.feed, method: .get).status == .ok)
            #expect(try await recents.terms() == [], "a poll never adds a term")
            // Searched once (with one post to count), then polled: the poll counts the other post.
            _ = try await client.execute(uri: "/api/search?q=\(RouteTests.encodedTerm)&count=1", method: .get)
            _ = try await client.execute(uri: "/search?q=%23swift", method: .get)
            for _ in 0..<3 { _ = try await client.execute(uri: Self.feed, method: .get) }
            #expect(try await recents.terms() == ["#swift", RouteTests.term], "and never moves one")
            let table = try await Popularity(database: site.database).table(for: RouteTests.term)
            #expect(
                table.rows(.users) == [PopularMention(mention: "@mallory", count: 2)],
                "counted once, however often polled")
            try await recents.delete(RouteTests.term)
            _ = try await client.execute(uri: Self.feed, method: .get)
            #expect(try await recents.terms() == ["#swift"], "a deleted term stays deleted")
        }
    }

    @Test func aHeaderDateOutOfRangeIsIgnoredNotFatal() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            for date in [
                "Mon, 01 Jan 10000000000000000 00:00:00 GMT", "Mon, 01 Jan 2025 99999999999999999:00:00 GMT",
                "Mon, -5 Jan 2025 00:00:00 GMT",
            ] {
                let response = try await client.execute(uri: Self.feed, method: .get, headers: [.ifModifiedSince: date])
                #expect(response.status == .ok, "\(date)")
            }
        }
    }

    @Test func aQueryThatCannotRunIsAFeedOfOneItemAndAMissingQueryIsABadRequest() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let broken = try await client.execute(uri: "/search/feed?q=%28%23swift", method: .get)
            #expect(broken.status == .ok && broken.text.components(separatedBy: "<item>").count == 2)
            #expect(
                broken.text.contains("<title>This search cannot run</title>") && broken.text.contains("never closed"))
            let again = try await client.execute(
                uri: "/search/feed?q=%28%23swift", method: .get,
                headers: [.ifNoneMatch: try #require(broken.headers[.eTag])])
            #expect(again.status == .notModified, "the explaining item does not change from poll to poll")
            let missing = try await client.execute(uri: "/search/feed", method: .get)
            #expect(missing.status == .badRequest && missing.text.contains("Give a query"))
            let unknown = try await client.execute(uri: "/search/feed?q=x&source=myspace", method: .get)
            #expect(unknown.status == .badRequest && unknown.text.contains("corpus"))
        }
    }

    @Test func theSearchPageNamesItsFeed() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/search?q=\(RouteTests.encodedTerm)", method: .get).text
            #expect(
                page.contains(
                    """
                    <link rel=\"alternate\" type=\"application/rss+xml\" title=\"#xsstest · Smashtag\" \
                    href=\"/search/feed?q=%23xsstest\">
                    """
                ))
        }
    }

    @Test func theTrendTwinIsTheSeriesThatAddsUpToTheCount() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(RouteTests.encodedTerm)", method: .get)
            let response = try await client.execute(
                uri: "/api/popularity/trend?term=\(RouteTests.encodedTerm)&mention=%40MALLORY&bucket=day", method: .get)
            #expect(
                response.text
                    == ##"""
                    {"bucket":"day","mention":"@mallory","points":[{"count":2,"start":"2025-03-01T00:00:00Z"}],\##
                    "term":"#xsstest"}
                    """##
            )
            for (query, message) in [
                ("mention=%40mallory", "Give a term"), ("term=x", "Give a mention"),
                ("term=x&mention=mallory", "Give a mention"),
                ("term=x&mention=%40m&bucket=week", "bucket must be hour or day"),
            ] {
                let bad = try await client.execute(uri: "/api/popularity/trend?\(query)", method: .get)
                #expect(bad.status == .badRequest && bad.text.contains(message), "\(query)")
            }
            let unknown = try await client.execute(
                uri: "/api/popularity/trend?term=%23never&mention=%40mallory", method: .get)
            #expect(unknown.status == .notFound && unknown.text.contains("“#never” is not in Recents"))
        }
    }

    @Test func theChartPageDrawsTheSeriesForScreenReadersToo() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(RouteTests.encodedTerm)", method: .get)
            let page = try await client.execute(
                uri: "/recents/popularity/trend?term=\(RouteTests.encodedTerm)&mention=%40mallory&bucket=hour",
                method: .get
            ).text
            #expect(
                page.contains("<svg class=\"chart\"") && page.contains("role=\"img\"")
                    && page.contains("<title id=\"chart-title\">@mallory in “#xsstest”, by hour</title>"))
            #expect(page.components(separatedBy: "<rect class=\"bar\"").count == 49, "two days of hours")
            #expect(page.contains("<title>Mar 1, 12:00: 2 posts</title>"))
            #expect(page.contains("<tr><td>Mar 1, 12:00</td><td>2</td></tr>"))
            #expect(page.contains("2 posts fetched for “#xsstest” name @mallory"))
            let empty = try await client.execute(
                uri: "/recents/popularity/trend?term=\(RouteTests.encodedTerm)&mention=%23nothing", method: .get)
            #expect(
                empty.status == .ok && empty.text.contains("No post fetched for “#xsstest” names #nothing.")
                    && !empty.text.contains("<svg class=\"chart\""))
            let far = try await client.execute(
                uri:
                    """
                    /recents/popularity/trend?term=\(RouteTests.encodedTerm)&mention=%40mallory&end=-9223372036854775807
                    """,
                method: .get
            ).text
            #expect(
                far.contains("<tr><td>Mar 1, 12:00</td><td>2</td></tr>") && !far.contains("class=\"earlier\""),
                "an end before the first post shows the first")
            let unknown = try await client.execute(
                uri: "/recents/popularity/trend?term=%23never&mention=%40m", method: .get)
            #expect(unknown.status == .notFound && unknown.text.contains("is not in Recents"))
            let bad = try await client.execute(
                uri: "/recents/popularity/trend?term=x&mention=%40m&bucket=week", method: .get)
            #expect(bad.status == .badRequest && bad.text.contains("bucket must be hour or day"))
        }
    }

    @Test func popularityRowsHaveASparklineAndTheirCountOpensTheChart() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(RouteTests.encodedTerm)", method: .get)
            let page = try await client.execute(uri: "/recents/popularity?term=\(RouteTests.encodedTerm)", method: .get)
                .text
            #expect(
                page.contains(
                    """
                    <a class=\"trend\" \
                    href=\"/recents/popularity/trend?term=%23xsstest&amp;mention=%40mallory&amp;back=
                    """
                ))
            #expect(
                page.contains(
                    """
                    <polyline points=\"0,17 4.3,17 8.6,17 12.9,17 17.2,17 21.5,17 25.8,17 30.2,17 34.5,17 38.8,17 \
                    43.1,17 47.4,17 51.7,17 56,1\"/>
                    """
                ))
            #expect(page.contains("data-events=\"/api/popularity/events?term=%23xsstest&amp;rows=recents\""))
            #expect(page.contains("<p class=\"dim origins\">From 2 posts, all from X.</p>"), "where they came from")
        }
    }

}

/// A chart shows a window of buckets; earlier and later windows are a link away, and together they hold every post.
@Suite struct TrendWindowTests {
    @Test func earlierAndLaterWindowsCoverTheWholeSeries() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            // The demo's posts are spread over 30 days: a hundred of them span more than two days of hours.
            _ = try await client.execute(uri: "/api/search?q=%23stanford&count=100", method: .get)
            let json = try await client.execute(
                uri: "/api/popularity/trend?term=%23stanford&mention=%23stanford&bucket=hour", method: .get)
            let points =
                try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])["points"]
                as? [[String: Any]]
            let total = try #require(points).compactMap { $0["count"] as? Int }.reduce(0, +)
            var uri = "/search/popularity/trend?term=%23stanford&mention=%23stanford&bucket=hour"
            var seen = 0
            var windows = 0
            while true {
                let page = try await client.execute(uri: uri, method: .get).text
                seen += page.matches(of: /<tr><td>[^<]+<\/td><td>(\d+)<\/td><\/tr>/).map { Int($0.1)! }.reduce(0, +)
                windows += 1
                guard let earlier = page.firstMatch(of: /<a class="earlier" href="([^"]+)">/)?.1 else { break }
                uri = String(earlier).replacingOccurrences(of: "&amp;", with: "&")
                #expect(windows < 20)
            }
            #expect(windows > 1 && seen == total)
            let oldest = try await client.execute(uri: uri, method: .get).text
            #expect(
                oldest.contains(
                    """
                    <a class=\"later\" \
                    href=\"/search/popularity/trend?term=%23stanford&amp;mention=%23stanford&amp;bucket=hour&amp;end=
                    """
                ))
        }
    }
}

/// What XML 1.0 forbids never reaches a feed, whatever a post holds.
@Suite struct XMLCharactersTests {
    @Test func controlCharactersAndNoncharactersBecomeReplacementCharacters() {
        var writer = HTMLWriter(capacity: 64)
        writer.append("<t>\("bell\u{07} null\u{00} tab\t line\n \u{FFFE}\u{FFFF} kept: 日本 👍🏽 ❤️ \u{FFFD}")</t>")
        let clean = String(decoding: XMLCharacters.replacingInvalid(writer).bytes, as: UTF8.self)
        #expect(clean == "<t>bell\u{FFFD} null\u{FFFD} tab\t line\n \u{FFFD}\u{FFFD} kept: 日本 👍🏽 ❤️ \u{FFFD}</t>")
    }
}
