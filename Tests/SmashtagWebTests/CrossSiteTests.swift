import AppStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Posts
import Testing

@testable import SmashtagWeb

/// What a page on another site can make a person's browser do to this server: a search it sends (an `<img>`, a
/// link) is answered but recorded nowhere, and no link or redirect of this site leads off it.
@Suite struct CrossSiteTests {
    static let encodedTerm = "%23" + WebFixture.hostileTag

    /// What browsers send for a search another site's page made, and for searches a person made.
    static let foreign: [HTTPFields] = [
        [.secFetchSite: "cross-site"], [.secFetchSite: "same-site"], [.referer: "http://evil.example/page.html"],
        [.origin: "http://evil.example"],
    ]
    static let own: [HTTPFields] = [[:], [.secFetchSite: "same-origin"], [.secFetchSite: "none"]]

    @Test(
        arguments: [
            ([:], true),
            ([.secFetchSite: "same-origin"], true),
            ([.secFetchSite: "none"], true),
            ([.secFetchSite: "same-site"], false),
            ([.secFetchSite: "cross-site"], false),
            ([.secFetchSite: "cross-site", .referer: "http://127.0.0.1:8080/search"], false),
            ([.referer: "http://127.0.0.1:8080/recents"], true),
            ([.referer: "https://127.0.0.1:8080/"], true),
            ([.referer: "http://127.0.0.1:9999/"], false),
            ([.referer: "http://127.0.0.1:8080.evil.example/"], false),
            ([.referer: "http://evil.example/?http://127.0.0.1:8080/"], false),
            ([.origin: "http://127.0.0.1:8080"], true),
            ([.origin: "http://evil.example"], false),
            ([.origin: "null"], false),
        ] as [(HTTPFields, Bool)])
    func whetherAGetMayRecord(headers: HTTPFields, records: Bool) {
        #expect(RequestSite.mayRecord(Self.request(.get, "/search?q=x", headers)) == records)
    }

    /// Where a POST came from, as browsers say it.
    @Test(
        arguments: [
            ([:], true),
            ([.secFetchSite: "same-origin"], true),
            ([.secFetchSite: "same-origin", .origin: "null"], true),
            ([.secFetchSite: "same-site"], false),
            ([.secFetchSite: "cross-site", .origin: "http://127.0.0.1:8080"], false),
            ([.secFetchSite: "none"], false),
            ([.origin: "http://127.0.0.1:8080"], true),
            ([.origin: "https://127.0.0.1:8080"], true),
            ([.origin: "http://127.0.0.1:9999"], false),
            ([.origin: "http://evil.example"], false),
            ([.origin: "null"], false),
        ] as [(HTTPFields, Bool)])
    func aPostFromAnotherSiteIsRefused(headers: HTTPFields, accepted: Bool) {
        #expect(RequestSite.isSameOrigin(Self.request(.post, "/recents/delete", headers)) == accepted)
    }

    static func request(_ method: HTTPRequest.Method, _ path: String, _ headers: HTTPFields) -> Request {
        let head = HTTPRequest(
            method: method, scheme: "http", authority: "127.0.0.1:8080", path: path, headerFields: headers)
        return Request(head: head, body: .init(buffer: ByteBuffer()))
    }

    @Test(arguments: foreign)
    func aSearchAnotherSiteMadeIsAnsweredButRecordsNothing(headers: HTTPFields) async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            for uri in [
                "/search?q=\(Self.encodedTerm)", "/search/search?q=%23a", "/api/search?q=%23b",
                "/search/feed?q=%23c", "/search?q=%23d&source=corpus&sources=1",
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(response.status == .ok, "\(uri)")
                #expect(response.headers[.setCookie] == nil || !uri.contains("sources=1"), "\(uri)")
            }
            #expect(try await Recents(database: site.database).terms().isEmpty)
            #expect(try await site.database.storedPostIDs().isEmpty, "nothing counted")
        }
    }

    @Test(arguments: own)
    func aSearchThePersonMadeIsRecorded(headers: HTTPFields) async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(Self.encodedTerm)", method: .get, headers: headers)
            #expect(try await Recents(database: site.database).terms() == ["#" + WebFixture.hostileTag])
        }
    }

    /// A hundred searches sent from another site's page cannot push a person's terms out of Recents (nor prune
    /// their counts): the attack that wiped them with `<img>` tags.
    @Test func aHundredForeignSearchesLeaveRecentsAndCountsAsTheyWere() async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(Self.encodedTerm)", method: .get)
            let popularity = Popularity(database: site.database)
            let before = try await popularity.table(for: "#" + WebFixture.hostileTag)
            for number in 0..<101 {
                _ = try await client.execute(
                    uri: "/search?q=%23wipe\(number)", method: .get, headers: [.secFetchSite: "cross-site"])
            }
            #expect(try await Recents(database: site.database).terms() == ["#" + WebFixture.hostileTag])
            #expect(try await popularity.table(for: "#" + WebFixture.hostileTag) == before)
        }
    }
}

/// The back control and a form's redirect lead only to this site, judged as browsers read URLs.
@Suite struct BackLinkTests {
    @Test(
        arguments: [
            "/\t/evil.example/phish", "/\n/evil.example", "/\r/evil.example", "/\r\n/evil.example", "\t//evil.example",
            " //evil.example", "//evil.example", "/\\evil.example", "\\\\evil.example", "\\/evil.example",
            "https://evil.example", "javascript:alert(1)", "/\u{0}/evil.example", "/\u{7F}/x", "/ /x", "", "search",
        ])
    func aBackLinkOffTheSiteIsRefused(value: String) {
        #expect(SiteURL.safeBack(value) == nil)
    }

    @Test(arguments: ["/", "/recents", "/search?q=%23swift&back=%2Frecents", "/search/posts/bluesky/at%3A%2F%2Fx"])
    func aPathOnTheSiteIsKept(value: String) {
        #expect(SiteURL.safeBack(value) == value)
    }

    @Test func theBackControlAndTheFormRedirectFallBackToTheirDefault() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let evil = "%2F%09%2Fevil.example%2Fphish"
            let page = try await client.execute(uri: "/search/search?q=%23a&back=\(evil)", method: .get)
            #expect(page.status == .ok)
            #expect(!page.text.contains("evil.example"))
            let recents = try await client.execute(uri: "/recents", method: .get)
            let token = try #require(
                recents.headers[.setCookie]?.split(separator: ";").first?.split(separator: "=").last.map(String.init))
            let headers: HTTPFields = [
                .cookie: "\(CSRF.cookieName)=\(token)", .contentType: "application/x-www-form-urlencoded",
                .secFetchSite: "same-origin",
            ]
            let form = ByteBuffer(string: "term=%23a&every=300&csrf=\(token)&back=\(evil)")
            let tracked = try await client.execute(uri: "/recents/track", method: .post, headers: headers, body: form)
            #expect(tracked.status == .seeOther && tracked.headers[.location] == "/recents")
        }
    }
}
