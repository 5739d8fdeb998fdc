import CompressNIO
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SmashtagWeb

/// What the server answers at the edges of HTTP: HEAD, wrong methods, broken paths, errors, compression, assets.
@Suite struct HTTPEdgeTests {
    static let getRoutes = [
        "/search", "/recents", "/search/search?q=%23xsstest", "/api/recents", "/manifest.json", "/icon-192.png",
        "/demo/avatars/mallory.svg",
    ]

    @Test func headAnswersEveryGetRouteWithoutABody() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            for path in Self.getRoutes {
                let get = try await client.execute(uri: path, method: .get)
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == get.status, "\(path)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
                #expect(head.body.readableBytes == 0, "\(path)")
                #expect(hasSecurityHeaders(head), "\(path)")
            }
        }
    }

    @Test(arguments: [
        ("/search", HTTPRequest.Method.post, "GET, HEAD"), ("/recents/delete", .get, "POST"),
        ("/search/tweets/123", .put, "GET, HEAD"),
        ("/api/search", .delete, "GET, HEAD"), ("/manifest.json", .post, "GET, HEAD"),
        ("/recents", .patch, "GET, HEAD"),
    ])
    func anotherMethodOnAKnownPathIs405WithAllow(path: String, method: HTTPRequest.Method, allow: String) async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: path, method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(hasSecurityHeaders(response))
        }
    }

    @Test func anUnknownPathIsA404PageWithTheSecurityHeaders() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/no/such/page", method: .get)
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("There is nothing at this address."))
            #expect(hasSecurityHeaders(page))
            let json = try await client.execute(uri: "/api/nothing", method: .get)
            #expect(json.status == .notFound)
            #expect(json.text == #"{"error":"There is nothing at this address."}"#)
            #expect(hasSecurityHeaders(json))
            #expect(try await client.execute(uri: "/no/such/page", method: .post).status == .notFound)
        }
    }

    @Test(arguments: [
        "/icon-192.png%00.txt", "/search%00", "/recents%0A", "/search/tweets/1%1B", "/%7F", "/search%zz",
        "/search%C3%28",
    ])
    func aPathWithControlCharactersOrBrokenEscapesIs400(path: String) async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .badRequest, "\(path)")
            #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
            #expect(hasSecurityHeaders(response), "\(path)")
        }
    }

    @Test func aThrownErrorIsA500PageThatHidesItsDetails() async throws {
        let directory = try await WebFixture.dataDirectory()
        let (app, _) = try await WebFixture.application(in: directory)
        try await DatabaseQueue(path: directory + "/smashtag.sqlite").write { db in
            try db.execute(sql: "DROP TABLE recent")
        }
        try await app.test(.router) { client in
            for path in ["/recents", "/api/recents"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .internalServerError, "\(path)")
                #expect(response.text.contains("Something went wrong on our side."), "\(path)")
                #expect(!response.text.contains("no such table"), "\(path): the database's words reached the page")
                #expect(hasSecurityHeaders(response), "\(path)")
            }
        }
    }

    @Test func textIsCompressedWhenTheClientTakesGzip() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            for path in ["/search?q=%23xsstest", "/api/search?q=%23xsstest", "/demo/images/1-0-400x300.svg"] {
                let plain = try await client.execute(uri: path, method: .get)
                let gzipped = try await client.execute(
                    uri: path, method: .get, headers: [.acceptEncoding: "br;q=1.0, gzip;q=0.8"])
                #expect(plain.headers[.contentEncoding] == nil, "\(path)")
                #expect(gzipped.headers[.contentEncoding] == "gzip", "\(path)")
                #expect(gzipped.headers[.vary] == "Accept-Encoding", "\(path)")
                #expect(gzipped.body.readableBytes < plain.body.readableBytes, "\(path)")
                var body = gzipped.body
                #expect(try body.decompress(with: .gzip()) == plain.body || path.contains("api"), "\(path)")
            }
            let refused = try await client.execute(
                uri: "/search", method: .get, headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    @Test func theSearchPageIsAtMost8KBCompressed() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/search", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(page.headers[.contentEncoding] == "gzip")
            #expect(page.body.readableBytes <= 8 * 1024)
        }
    }

    @Test func theStylesheetAndScriptHaveHashedNamesCachedForAYear() async throws {
        let (app, site) = try await WebFixture.application()
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/search", method: .get).text
            for asset in [site.assets.stylesheet, site.assets.script] {
                #expect(page.contains("\"\(asset.path)\""), "\(asset.name) is not linked from the page")
                let plain = try await client.execute(uri: asset.path, method: .get)
                #expect(plain.status == .ok)
                #expect(plain.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(plain.body == asset.bytes)
                let gzipped = try await client.execute(
                    uri: asset.path, method: .get, headers: [.acceptEncoding: "gzip"])
                #expect(gzipped.headers[.contentEncoding] == "gzip")
                var body = gzipped.body
                #expect(try body.decompress(with: .gzip()) == asset.bytes)
                let again = try await client.execute(
                    uri: asset.path, method: .get, headers: [.ifNoneMatch: plain.headers[.eTag] ?? ""])
                #expect(again.status == .notModified)
            }
            #expect(try await client.execute(uri: "/assets/app.0000.css", method: .get).status == .notFound)
        }
    }

    @Test(arguments: [
        ("gzip", true), ("gzip, deflate, br", true), ("*", true), ("GZIP;q=0.5", true), ("gzip;q=0", false),
        ("identity", false), ("br", false), ("", false),
    ])
    func acceptEncodingIsReadWithItsWeights(header: String, accepted: Bool) {
        #expect(Gzip.isAccepted(by: header) == accepted)
    }
}
