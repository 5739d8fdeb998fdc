import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SmashtagWeb

/// What the GUIDE says the JSON API does, where it once did otherwise (issue 55's table).
@Suite struct GuideContractTests {
    @Test func aSourceThisServerDoesNotOfferIsNamedInErrorsNotDropped() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/api/search?q=%23\(WebFixture.hostileTag)&source=corpus,mastodon", method: .get)
            #expect(response.status == .ok)
            let document = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
            let errors = (document as? [String: Any])?["errors"] as? [[String: String]]
            #expect(
                errors == [
                    [
                        "source": "mastodon",
                        "message": "“mastodon” is not a source this server offers (not configured here).",
                    ]
                ], "\(String(buffer: response.body).prefix(300))")
        }
    }

    @Test func aTimelineIsAskedOfGEXFOnlyAsTheCommandAsksIt() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/api/search?q=%23\(WebFixture.hostileTag)", method: .get)
            for format in ["csv", "json"] {
                let response = try await client.execute(
                    uri: "/api/popularity/network?term=%23\(WebFixture.hostileTag)&format=\(format)&by=day",
                    method: .get)
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("use it with format=gexf"))
            }
            let gexf = try await client.execute(
                uri: "/api/popularity/network?term=%23\(WebFixture.hostileTag)&format=gexf&by=day", method: .get)
            #expect(gexf.status == .ok)
        }
    }
}

/// A term not in Recents is the same answer on every JSON address that reads its counts: a 404 that says so.
@Suite struct NotInRecentsTests {
    @Test func popularityTrendAndNetworkOfATermNotInRecentsAre404() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            for path in [
                "/api/popularity?term=%23neverSearched", "/api/popularity/trend?term=%23neverSearched&mention=%23a",
                "/api/popularity/network?term=%23neverSearched",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(String(buffer: response.body).contains("is not in Recents"), "\(path)")
            }
        }
    }
}

/// A query with a control character is refused with its sentence and kept nowhere (issue 55: `%00` added an empty
/// term to Recents, `%01x` was stored as `\u0001x`).
@Suite struct ControlCharacterQueryTests {
    @Test func aControlCharacterIsSaidAndNothingIsKept() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            for query in ["%00", "%01x", "x%1Fy", "%C2%9B"] {
                let page = try await client.execute(uri: "/search?q=\(query)", method: .get)
                #expect(String(buffer: page.body).contains("cannot hold control characters"), "\(query)")
                let api = try await client.execute(uri: "/api/search?q=\(query)", method: .get)
                #expect(api.status == .badRequest, "\(query)")
            }
            let recents = try await client.execute(uri: "/api/recents", method: .get)
            #expect(String(buffer: recents.body) == "[]")
        }
    }
}
