import AppStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Posts
import Testing

@testable import SmashtagWeb

/// Every page and JSON twin through the whole router, as the server runs it.
@Suite struct RouteTests {
    static let term = "#" + WebFixture.hostileTag
    static let encodedTerm = "%23" + WebFixture.hostileTag

    static let pages = [
        "/search", "/search?q=\(encodedTerm)", "/search/search?q=\(encodedTerm)&back=%2Fsearch", "/recents",
        "/recents/search?q=\(encodedTerm)&back=%2Frecents",
        "/search/posts/twitter/\(WebFixture.hostileID)?back=%2Fsearch",
        "/recents/popularity?term=\(encodedTerm)", "/search/image?src=%2Fdemo%2Fimages%2F1-0-400x300.svg",
        "/search/images?q=\(encodedTerm)&newest=4000000000000&oldest=0",
        "/search/search?q=\(encodedTerm)&only=\(WebFixture.hostileID)",
        "/recents/popularity/trend?term=\(encodedTerm)&mention=%40mallory",
        "/search/popularity/trend?term=\(encodedTerm)&mention=%23nothing&bucket=day",
    ]
    static let twins = [
        "/api/search?q=\(encodedTerm)", "/api/posts/twitter/\(WebFixture.hostileID)",
        "/api/tweets/\(WebFixture.hostileID)", "/api/recents", "/api/popularity?term=\(encodedTerm)",
        "/api/popularity/trend?term=\(encodedTerm)&mention=%40mallory&bucket=hour",
    ]

    @Test func everyPageIsHTMLWithTheSecurityHeaders() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(
                uri: """
                    /search?q=\(Self.encodedTerm)
                    """, method: .get)  // the tweets are stored by a search
            for page in Self.pages {
                let response = try await client.execute(uri: page, method: .get)
                #expect(response.status == .ok, "\(page)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(page)")
                #expect(hasSecurityHeaders(response), "\(page)")
                #expect(response.text.contains("</html>"), "\(page)")
            }
        }
    }

    @Test func everyJSONTwinAnswersJSON() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(Self.encodedTerm)", method: .get)
            for twin in Self.twins {
                let response = try await client.execute(uri: twin, method: .get)
                #expect(response.status == .ok, "\(twin)")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(twin)")
                #expect((try? JSONSerialization.jsonObject(with: Data(response.text.utf8))) != nil, "\(twin)")
            }
        }
    }

    @Test func aPageSizeOutsideOneToAHundredIsSaidNotClamped() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            for count in ["0", "-5", "101", "abc", ""] {
                let response = try await client.execute(
                    uri: "/api/search?q=\(Self.encodedTerm)&count=\(count)", method: .get)
                #expect(response.status == .badRequest, "count=\(count)")
                #expect(response.text == #"{"error":"count must be a whole number from 1 to 100."}"#)
            }
            let one = try await client.execute(uri: "/api/search?q=\(Self.encodedTerm)&count=1", method: .get)
            #expect(one.status == .ok && one.text.components(separatedBy: "\"id\":").count == 2)
        }
    }

    @Test func postsAreAddressedByNetworkAndIdAndOldTweetAddressesRedirect() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(Self.encodedTerm)", method: .get)
            let old = try await client.execute(
                uri: "/search/tweets/\(WebFixture.hostileID)?back=%2Fsearch", method: .get)
            #expect(old.status == .movedPermanently)
            #expect(old.headers[.location] == "/search/posts/twitter/\(WebFixture.hostileID)?back=%2Fsearch")
            let elsewhere = try await client.execute(
                uri: "/search/posts/mastodon/\(WebFixture.hostileID)", method: .get)
            #expect(elsewhere.status == .notFound, "the same id on another network is another post")
            // A Bluesky id holds slashes: percent-encoded it stays one segment of the route.
            let bluesky = Route.post(.search).path(
                PostKey(network: .bluesky, id: "at://did:plc:x/app.bsky.feed.post/3k"))
            let missing = try await client.execute(uri: bluesky, method: .get)
            #expect(missing.status == .notFound && missing.text.contains("This post is not among the posts fetched"))
            let api = try await client.execute(uri: "/api/posts/twitter/\(WebFixture.hostileID)", method: .get)
            #expect(api.status == .ok && api.text.contains(#""network":"twitter""#))
        }
    }

    @Test func aRememberedChoiceOfSourcesTheSiteNoLongerOffersSearchesThemAll() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let page = try await client.execute(
                uri: "/search?q=\(Self.encodedTerm)", method: .get, headers: [.cookie: "smashtag_sources=myspace"])
            #expect(
                page.status == .ok && !page.text.contains("Choose at least one source")
                    && page.text.contains("<li class=\"post\">"))
            let none = try await client.execute(uri: "/search?q=\(Self.encodedTerm)&sources=1", method: .get)
            #expect(none.text.contains("Choose at least one source") && none.headers[.setCookie] == nil)
        }
    }

    @Test func theJSONTwinTakesSourcesAndSaysWhichItDoesNotHave() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let unknown = try await client.execute(
                uri: "/api/search?q=\(Self.encodedTerm)&source=myspace", method: .get)
            #expect(unknown.status == .badRequest && unknown.text.contains("corpus"))
            let chosen = try await client.execute(
                uri: "/api/search?q=\(Self.encodedTerm)&source=corpus&count=1", method: .get)
            #expect(chosen.status == .ok && chosen.text.contains(#""older":"corpus:"#))
        }
    }

    @Test func hostileTextIsShownAsTextOnEveryPage() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(
                uri: """
                    /search?q=\(Self.encodedTerm)
                    """, method: .get)  // two tweets: Popularity lists their mentions
            for page in Self.pages {
                let html = try await client.execute(uri: page, method: .get).text
                #expect(!html.contains("<script>alert"), "\(page)")
                #expect(!html.contains("<img src=x"), "\(page)")
                #expect(!html.contains("href=\"javascript:") && !html.contains("src=\"javascript:"), "\(page)")
            }
            let search = try await client.execute(uri: "/search?q=\(Self.encodedTerm)", method: .get).text
            #expect(search.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(search.contains("{{7*7}}"))
            #expect(search.contains("&lt;img src=x onerror=alert(3)&gt;"))
            #expect(search.contains("&quot;quoted&quot;") || search.contains("&#34;quoted&#34;"))
        }
    }

    @Test func aHostileTermIsTextInRecentsAndPopularity() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let term = "<b>bold</b><script>alert(1)</script>"
            let encoded = term.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await client.execute(uri: "/search?q=\(encoded)", method: .get)
            for page in ["/recents", "/recents/popularity?term=\(encoded)", "/search?q=\(encoded)"] {
                let html = try await client.execute(uri: page, method: .get).text
                #expect(!html.contains("<script>alert"), "\(page)")
                #expect(html.contains("&lt;script&gt;"), "\(page)")
            }
        }
    }

    @Test func deletingARecentNeedsTheTokenAndThisSite() async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(Self.encodedTerm)", method: .get)
            let recents = try await client.execute(uri: "/recents", method: .get)
            let token = try #require(
                recents.headers[.setCookie]?.split(separator: ";").first?.split(separator: "=").last.map(String.init))
            let cookie: HTTPFields = [
                .cookie: "\(CSRF.cookieName)=\(token)", .contentType: "application/x-www-form-urlencoded",
            ]
            let form = ByteBuffer(string: "term=\(Self.encodedTerm)&csrf=\(token)")
            let refusals: [HTTPFields] = [
                [
                    .cookie: "\(CSRF.cookieName)=\(token)", .contentType: "application/x-www-form-urlencoded",
                    .origin: "http://evil.example",
                ],
                [
                    .cookie: "\(CSRF.cookieName)=\(token)", .contentType: "application/x-www-form-urlencoded",
                    .secFetchSite: "cross-site",
                ],
                [
                    .cookie: "\(CSRF.cookieName)=\(token)", .contentType: "application/x-www-form-urlencoded",
                    .origin: "null",
                ],
                [.contentType: "application/x-www-form-urlencoded"],
            ]
            for headers in refusals {
                let refused = try await client.execute(
                    uri: "/recents/delete", method: .post, headers: headers, body: form)
                #expect(refused.status == .forbidden)
                #expect(hasSecurityHeaders(refused))
            }
            #expect(try await Recents(database: site.database).terms() == [Self.term])
            var sameSite = cookie
            sameSite[.origin] = "null"  // what a browser sends on its own form post under some referrer policies
            sameSite[.secFetchSite] = "same-origin"
            let accepted = try await client.execute(
                uri: "/recents/delete", method: .post, headers: sameSite, body: form)
            #expect(accepted.status == .seeOther)
            #expect(try await Recents(database: site.database).terms() == [])
        }
    }
}
