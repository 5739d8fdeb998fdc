import AppStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Posts
import Testing

@testable import SmashtagWeb

/// Tracking a term from the pages (forms with the CSRF token and the origin check) and from the JSON API, and how a
/// tracked term shows on Recents and on its Popularity page.
@Suite struct TrackingPageTests {
    static let term = "#" + WebFixture.hostileTag
    static let encodedTerm = "%23" + WebFixture.hostileTag

    /// The CSRF token a page set, and the headers a same-origin form post sends with it.
    private static func formHeaders(from page: TestResponse) throws -> (token: String, headers: HTTPFields) {
        let token = try #require(
            page.headers[.setCookie]?.split(separator: ";").first?.split(separator: "=").last.map(String.init))
        let headers: HTTPFields = [
            .cookie: "\(CSRF.cookieName)=\(token)", .contentType: "application/x-www-form-urlencoded",
            .secFetchSite: "same-origin",
        ]
        return (token, headers)
    }

    @Test func aTermIsTrackedFromItsPopularityPageAndMarkedOnRecents() async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/search?q=\(Self.encodedTerm)", method: .get)
            let popularity = try await client.execute(uri: "/recents/popularity?term=\(Self.encodedTerm)", method: .get)
            #expect(popularity.text.contains(#"action="/recents/track""#) && popularity.text.contains(">5 min<"))
            let (token, headers) = try Self.formHeaders(from: popularity)
            let back = "%2Frecents%2Fpopularity%3Fterm%3D%2523" + WebFixture.hostileTag
            let form = ByteBuffer(string: "term=\(Self.encodedTerm)&every=60&csrf=\(token)&back=\(back)")
            let tracked = try await client.execute(uri: "/recents/track", method: .post, headers: headers, body: form)
            #expect(tracked.status == .seeOther)
            #expect(tracked.headers[.location] == "/recents/popularity?term=\(Self.encodedTerm)")
            #expect(try await TrackedTerms(database: site.database).term(Self.term)?.plan.every == 60)

            let again = try await client.execute(uri: "/recents/popularity?term=\(Self.encodedTerm)", method: .get)
            #expect(again.text.contains("Tracked · every 1 min · not fetched yet"))
            #expect(again.text.contains(#"action="/recents/untrack""#))
            let recents = try await client.execute(uri: "/recents", method: .get, headers: headers)
            #expect(recents.text.contains(#"data-term="\#(Self.term)" data-tracked"#))
            #expect(recents.text.contains("● tracked · every 1 min"))

            let untrack = ByteBuffer(string: "term=\(Self.encodedTerm)&csrf=\(token)")
            let untracked = try await client.execute(
                uri: "/recents/untrack", method: .post, headers: headers, body: untrack)
            #expect(untracked.status == .seeOther && untracked.headers[.location] == "/recents")
            #expect(try await TrackedTerms(database: site.database).all().isEmpty)
        }
    }

    @Test func aTrackFormNeedsTheTokenAndThisSite() async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            let recents = try await client.execute(uri: "/recents", method: .get)
            let (token, headers) = try Self.formHeaders(from: recents)
            let form = ByteBuffer(string: "term=\(Self.encodedTerm)&csrf=\(token)")
            var crossSite = headers
            crossSite[.secFetchSite] = "cross-site"
            var noToken = headers
            noToken[.cookie] = nil
            for refused in [crossSite, noToken] {
                let answer = try await client.execute(
                    uri: "/recents/track", method: .post, headers: refused, body: form)
                #expect(answer.status == .forbidden && hasSecurityHeaders(answer))
            }
            #expect(try await TrackedTerms(database: site.database).all().isEmpty)
        }
    }

    @Test func theJSONAPITracksListsAndUntracks() async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            let json: HTTPFields = [.contentType: "application/json"]
            let body = ByteBuffer(
                string: ##"{"term": "#swift", "every": "30s", "sources": ["corpus"], "backfill": 2}"##)
            let created = try await client.execute(uri: "/api/tracking", method: .post, headers: json, body: body)
            #expect(created.status == .created)
            let term = try #require(JSONSerialization.jsonObject(with: Data(created.text.utf8)) as? [String: Any])
            #expect(term["term"] as? String == "#swift" && term["every"] as? Int == 30 && term["backfill"] as? Int == 2)
            #expect(term["sources"] as? [String] == ["corpus"] && term["posts"] as? Int == 0)
            let list = try await client.execute(uri: "/api/tracking", method: .get)
            #expect(list.text.hasPrefix(#"[{"backfill":2,"every":30,"#))
            #expect(try await Recents(database: site.database).terms() == ["#swift"])

            let refusals: [(String, HTTPFields, HTTPResponse.Status, String)] = [
                (##"{"term": "#a", "every": "1s"}"##, json, .badRequest, "too often"),
                (##"{"term": "#a", "every": "soon"}"##, json, .badRequest, "is not an interval"),
                (##"{"term": "#a", "sources": ["myspace"]}"##, json, .badRequest, "not a source this server offers"),
                (##"{"term": "(#a"}"##, json, .badRequest, "never closed"),
                (##"{"words": "#a"}"##, json, .badRequest, "is not the JSON object"),
                (
                    "term=%23a", [.contentType: "application/x-www-form-urlencoded"], .unsupportedMediaType,
                    "JSON object"
                ),
                (
                    ##"{"term": "#a"}"##, [.contentType: "application/json", .origin: "http://evil.example"],
                    .forbidden, "another site"
                ),
            ]
            for (text, headers, status, sentence) in refusals {
                let answer = try await client.execute(
                    uri: "/api/tracking", method: .post, headers: headers, body: ByteBuffer(string: text))
                #expect(answer.status == status, "\(text)")
                #expect(answer.text.contains(sentence), "\(text): \(answer.text)")
            }

            let untrack = ByteBuffer(string: ##"{"term": "#SWIFT"}"##)
            let gone = try await client.execute(
                uri: "/api/tracking/delete", method: .post, headers: json, body: untrack)
            #expect(gone.status == .ok && gone.text == ##"{"untracked":"#SWIFT"}"##)
            let missing = try await client.execute(
                uri: "/api/tracking/delete", method: .post, headers: json, body: untrack)
            #expect(missing.status == .notFound)
        }
    }

    /// The same limit as a search's: a term of 1.9 MB (five of them once made Recents 78 MB of HTML) is refused,
    /// one of a thousand characters tracked.
    @Test func aTrackedTermHasASearchTermsLimit() async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            let json: HTTPFields = [.contentType: "application/json"]
            for (length, status) in [
                (1_900_000, HTTPResponse.Status.badRequest), (1_001, .badRequest), (1_000, .created),
            ] {
                let term = "#" + String(repeating: "a", count: length - 1)
                let body = ByteBuffer(string: #"{"term": "\#(term)"}"#)
                let answer = try await client.execute(uri: "/api/tracking", method: .post, headers: json, body: body)
                #expect(answer.status == status, "\(length)")
                if status == .badRequest {
                    #expect(answer.text.contains("at most 1,000 characters"), "\(answer.text.prefix(200))")
                }
            }
            #expect(try await TrackedTerms(database: site.database).all().map(\.term.count) == [1_000])
            let search = try await client.execute(
                uri: "/search?q=%23" + String(repeating: "b", count: 1_000), method: .get)
            #expect(search.status == .ok && search.text.contains("at most 1,000 characters"))
            #expect(try await Recents(database: site.database).terms().count == 1, "the long search is not recorded")
        }
    }
}
