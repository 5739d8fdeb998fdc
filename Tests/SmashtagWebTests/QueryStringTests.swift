import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SmashtagWeb

/// Query strings read as browsers send forms: `+` is a space, `%2B` a plus, on every page, JSON twin and feed.
@Suite struct QueryStringTests {
    /// What a browser's form sends for each typed query (Chromium's and Safari's encoding), and what must arrive.
    static let typed: [(sent: String, arrives: String)] = [
        ("%23swift+OR+%23travel", "#swift OR #travel"),
        ("c%2B%2B", "c++"),
        ("rock+%26+roll", "rock & roll"),
        ("%22a+phrase%22", "\"a phrase\""),
        ("%23stanford+-%23swift", "#stanford -#swift"),
        ("from%3Ax+word", "from:x word"),
        ("from:x+word", "from:x word"),
        ("a+++b", "a   b"),
        ("%F0%9F%A6%8B+%E6%9D%B1%E4%BA%AC", "🦋 東京"),
        ("%D9%85%D8%B1%D8%AD%D8%A8%D8%A7+%23%D8%B3%D9%88%D9%8A%D9%81%D8%AA", "مرحبا #سويفت"),
        ("%23swift%20OR%20%23travel", "#swift OR #travel"),  // links the site builds
        ("", ""),
    ]

    @Test(arguments: typed)
    func aTypedQueryArrivesAsTyped(sent: String, arrives: String) throws {
        #expect(try QueryString(decoding: "q=\(sent)")["q"] == arrives)
    }

    @Test func namesRepeatEmptyFieldsAreSkippedAndANameAloneHasAnEmptyValue() throws {
        let query = try QueryString(decoding: "source=corpus&&source=mastodon&sources&q+x=a%3Db")
        #expect(query.all("source") == ["corpus", "mastodon"])
        #expect(query["sources"] == "")
        #expect(query["q x"] == "a=b")
        #expect(query["missing"] == nil)
    }

    @Test(arguments: [
        ("q=%zz", "character 3"), ("q=abc%2", "character 6"), ("a=1&q=%", "character 7"), ("q=%C3%28", "not UTF-8"),
        ("%G1=x", "character 1"),
    ])
    func brokenPercentEncodingSaysWhere(query: String, says: String) {
        #expect {
            try QueryString(decoding: Substring(query))
        } throws: { error in
            (error as? RefusedRequest)?.sentence.contains(says) == true
        }
    }

    @Test func aFormSubmittedSearchFindsItsPostsOnThePageTheJSONTwinAndTheFeed() async throws {
        let (app, _) = try await WebFixture.application()
        let sent = "%23\(WebFixture.hostileTag)+%40mallory"
        let typed = "#\(WebFixture.hostileTag) @mallory"
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/search?q=\(sent)", method: .get)
            #expect(page.status == .ok)
            #expect(page.text.contains("<h1>\(typed)</h1>"))
            #expect(page.text.contains("<a class=\"row\" href=\"/search/posts/twitter/\(WebFixture.hostileID)?"))
            let twin = try await client.execute(uri: "/api/search?q=\(sent)&count=5", method: .get)
            let document = try JSONSerialization.jsonObject(with: Data(twin.text.utf8)) as? [String: Any]
            #expect(document?["query"] as? String == typed)
            #expect((document?["tweets"] as? [Any])?.isEmpty == false)
            let feed = try await client.execute(uri: "/search/feed?q=\(sent)", method: .get)
            #expect(feed.status == .ok)
            #expect(feed.text.contains("<title>\(typed) · Smashtag</title>"))
            let popularity = try await client.execute(uri: "/recents/popularity?term=\(sent)", method: .get)
            #expect(popularity.text.contains("Popularity: \(typed)"))
        }
    }

    @Test(arguments: ["/search?q=%zz", "/recents/popularity?term=%E2%28", "/search/feed?q=%2", "/api/search?q=%zz"])
    func aBrokenQueryStringIsA400WithOneSentence(uri: String) async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .badRequest, "\(uri)")
            #expect(hasSecurityHeaders(response), "\(uri)")
            #expect(response.text.contains("The address"), "\(uri)")
            #expect(!response.text.contains("RefusedRequest"), "\(uri)")
        }
    }
}
