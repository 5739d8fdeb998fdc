import AppStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Posts
import Testing

@testable import SmashtagWeb

/// Live Popularity streams on a real socket, as `serve` writes them (`EventStreamHandler`, which only a real
/// connection has): however many listen to a term, one reader serves them and every one hears the final counts; a
/// page's stream carries its rendered rows; a stream whose browser went away is let go at once; what is not a stream
/// of its own is answered by the route; and a stream still open never holds a stopping server.
@Suite(.timeLimit(.minutes(2))) struct LiveStreamTests {
    static let streams = 60
    static let path = "/api/popularity/events?term=\(RouteTests.encodedTerm)"

    @Test func streamsOfOneTermShareOneReaderAndEachHearsTheFinalCounts() async throws {
        let site = try await WebFixture.site()
        let feeds = site.liveFeeds
        try await Self.serve(site) { port in
            var connections: [RawConnection] = []
            for _ in 0..<Self.streams { connections.append(try await Self.open(Self.path, port: port)) }
            for connection in connections { #expect(await connection.receives("event: table", within: .seconds(10))) }
            #expect(feeds.counts.feeds == 1 && feeds.counts.listeners == Self.streams)

            let published = feeds.counts.published
            _ = try await site.sessions.fetch(RouteTests.term, from: site.sources, at: .newest)
            for connection in connections { #expect(await connection.receives("@mallory", within: .seconds(10))) }
            // One read and one rendering per change, not one per stream.
            #expect(feeds.counts.published - published < Self.streams / 2)

            for connection in connections { try await connection.close() }
            #expect(await holds(within: .seconds(10)) { feeds.counts.listeners == 0 && feeds.counts.feeds == 0 })
        }
    }

    @Test func aStreamIsNeverCompressedAndCarriesTheSecurityHeaders() async throws {
        let site = try await WebFixture.site()
        try await Self.serve(site) { port in
            let stream = try await Self.open(Self.path, port: port, headers: "Accept-Encoding: gzip\r\n")
            #expect(await stream.receives("event: table", within: .seconds(10)))
            let head = stream.text.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(head.hasPrefix("http/1.1 200 ok"))
            #expect(head.contains("content-type: text/event-stream") && !head.contains("content-encoding"))
            #expect(head.contains("content-security-policy: default-src 'self'") && head.contains("nosniff"))
        }
    }

    @Test func aPopularityPagesStreamCarriesItsRenderedRows() async throws {
        let site = try await WebFixture.site()
        try await Self.serve(site) { port in
            let stream = try await Self.open(Self.path + "&rows=search", port: port)
            #expect(await stream.receives("event: rows", within: .seconds(10)))
            #expect(stream.text.contains("<p class=\"empty\">No hashtag or user is mentioned more than once yet."))
            _ = try await site.sessions.fetch(RouteTests.term, from: site.sources, at: .newest)
            #expect(await stream.receives("<span class=\"name\">@mallory</span>", within: .seconds(10)))
            #expect(stream.text.contains("class=\"spark\"") && !stream.text.contains("<img src=x"))
        }
    }

    @Test func whatIsNotAStreamOfItsOwnIsAnsweredByTheRoute() async throws {
        let site = try await WebFixture.site()
        try await Self.serve(site) { port in
            let missing = try await Self.open("/api/popularity/events", port: port)
            #expect(await missing.receives("{\"error\":", within: .seconds(10)))
            #expect(missing.text.hasPrefix("HTTP/1.1 400") && missing.text.contains("nosniff"))

            let window = try await Self.open(Self.path + "&window=1y", port: port)
            #expect(await window.receives("window must be 24h, 7d, 30d or all.", within: .seconds(10)))

            let head = try await Self.open(Self.path, port: port, method: "HEAD")
            #expect(await head.receives("text/event-stream", within: .seconds(10)))
            #expect(head.text.hasPrefix("HTTP/1.1 200") && !head.text.contains("event:"))

            let post = try await Self.open(Self.path, port: port, method: "POST", headers: "Content-Length: 0\r\n")
            #expect(await post.receives("HTTP/1.1 405", within: .seconds(10)))

            // A request after a stream on its connection: the stream never ends, so nothing may follow it.
            let pipelined = try await Self.open(Self.path, port: port)
            #expect(await pipelined.receives("event: table", within: .seconds(10)))
            try await pipelined.send("GET /api/recents HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await pipelined.isClosed(within: .seconds(10)))
        }
    }

    @Test func aStreamStillOpenEndsWhenTheServerStops() async throws {
        let site = try await WebFixture.site()
        try await Self.serve(site) { port in
            let connection = try await Self.open(Self.path, port: port)
            #expect(await connection.receives("event: table", within: .seconds(10)))
        }
        // The test's end stopped the server gracefully: reaching this line is what is tested.
        #expect(site.liveFeeds.counts.listeners == 0)
    }

    /// The site's server on a free port, as `serve` runs it.
    static func serve(_ site: Site, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let app = Application(
            router: try buildRouter(site), server: httpServer(site, idleTimeout: .seconds(15)),
            logger: WebFixture.quietLogger)
        try await app.test(.live) { client in try await body(try #require(client.port)) }
    }

    static func open(
        _ path: String, port: Int, method: String = "GET", headers: String = ""
    ) async throws -> RawConnection {
        let connection = try await RawConnection.open(port: port)
        try await connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n")
        return connection
    }
}
