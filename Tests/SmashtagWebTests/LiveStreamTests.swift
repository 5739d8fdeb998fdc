import AppStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Posts
import SmashtagApp
import TestSupport
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

    /// Hashtags with every kind of line break in them (an imported file may carry any): an event stream's reader ends
    /// a line at CR, LF or CRLF, so each must arrive inside its `data:` lines, never starting a field of its own
    /// (`event:`, `retry:`) or ending the event early; NEL and LS, which end no line there, arrive as they are.
    @Test func hashtagsWithLineBreaksArriveWholeInTheLiveRows() async throws {
        let site = try await WebFixture.site()
        let tags = ["#y\r\rdata: early", "#a\nevent: x", "#b\r\nretry: 1", "#c\u{85}d", "#e\u{2028}f"]
        var (text, mentions) = ("", [Mention]())
        for tag in tags {
            if !text.isEmpty { text += " " }
            let start = text.unicodeScalars.count
            text += tag
            mentions.append(Mention(kind: .hashtag, keyword: tag, range: start..<text.unicodeScalars.count))
        }
        let posts = (1...2).map {
            Post(
                id: "19000000000000001\($0)", created: Date(timeIntervalSince1970: 1_740_000_000 + Double($0)),
                author: TestPosts.author("eve"), text: text, mentions: mentions)
        }
        let source = ScriptedSource()
        source.enqueue(posts)
        try await Self.serve(site) { port in
            let path = "/api/popularity/events?term=%23breaks"
            let (stream, tables) = (
                try await Self.open(path + "&rows=search", port: port), try await Self.open(path, port: port)
            )
            #expect(await stream.receives("event: rows", within: .seconds(10)))
            #expect(await tables.receives("event: table", within: .seconds(10)))
            _ = try await site.sessions.fetch("#breaks", from: SourceSet(only: source), at: .newest)
            #expect(await stream.receives("#e\u{2028}f", within: .seconds(10)))
            #expect(await tables.receives("#e\u{2028}f", within: .seconds(10)))
            let events = EventSourceReader(Self.dechunked(stream.text))
            #expect(events.otherFields == ["retry: 2000"], "no field but the stream's own")
            #expect(Set(events.events.map(\.name)).isSubset(of: ["table", "rows", "tracking"]))
            let rows = try #require(events.events.last { $0.name == "rows" }?.data)
            // In HTML a CR is a reference (a parser would make a raw one LF); LF, NEL and LS are the text's own.
            for shown in ["#y&#13;&#13;data: early", "#a\nevent: x", "#b&#13;\nretry: 1", "#c\u{85}d", "#e\u{2028}f"] {
                #expect(rows.contains(shown), "\(shown.debugDescription)")
            }
            let table = try #require(EventSourceReader(Self.dechunked(tables.text)).events.last?.data)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(table.utf8)) as? [String: Any])
            let hashtags = (json["hashtags"] as? [[String: Any]] ?? []).compactMap { $0["mention"] as? String }
            #expect(Set(hashtags) == Set(tags), "the JSON carries each exactly")
        }
    }

    /// The body of a chunked response, as far as whole chunks go.
    static func dechunked(_ response: String) -> String {
        var rest = Array(response.utf8)[...]
        guard let head = rest.firstRange(of: Array("\r\n\r\n".utf8)) else { return "" }
        rest = rest[head.upperBound...]
        var body: [UInt8] = []
        while let lineEnd = rest.firstRange(of: Array("\r\n".utf8)),
            let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16), size > 0,
            rest.distance(from: lineEnd.upperBound, to: rest.endIndex) >= size
        {
            let start = lineEnd.upperBound
            body += rest[start..<start + size]
            rest = rest[min(rest.endIndex, start + size + 2)...]
        }
        return String(decoding: body, as: UTF8.self)
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

/// An event stream read as a browser's `EventSource` reads it (the HTML standard's parser): lines end at CRLF, CR or
/// LF; a blank line dispatches the event; `data:` lines join with LF; `:` starts a comment.
struct EventSourceReader {
    private(set) var events: [(name: String, data: String)] = []
    /// Every field but `event` and `data`, as `name: value`.
    private(set) var otherFields: [String] = []

    init(_ stream: String) {
        var name = "message"
        var data: [String] = []
        var lines: [Substring] = []
        var rest = Substring(stream)
        while let end = rest.firstIndex(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            lines.append(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
        for line in lines {
            if line.isEmpty {
                if !data.isEmpty { events.append((name, data.joined(separator: "\n"))) }
                (name, data) = ("message", [])
                continue
            }
            if line.hasPrefix(":") { continue }
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let field = line[..<colon]
            var value = colon == line.endIndex ? "" : line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
            switch field {
            case "event": name = String(value)
            case "data": data.append(String(value))
            default: otherFields.append("\(field): \(value)")
            }
        }
    }
}
