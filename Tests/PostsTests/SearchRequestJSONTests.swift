import Posts
import Testing
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A search session's follow-on requests, written without `JSONEncoder`: `JSONDecoder` reads them back equal, every
/// position and source alike.
struct SearchRequestJSONTests {
    private static let requests: [String: SearchRequest] = [
        "x": SearchRequest(query: "#a OR \"b/c\" \\ é", count: 25, position: .newest),
        "corpus": SearchRequest(query: "#a", position: .newer(than: "19")),
        "mastodon:example.social": SearchRequest(query: "@b", count: 100, position: .older(than: "7", token: "t\n1")),
        "bluesky": SearchRequest(query: "c", position: .older(than: "at://did:plc:1/app.bsky.feed.post/2", token: nil)),
    ]

    @Test func requestsReadBackEqual() throws {
        var json = JSONWriter()
        json.write(Self.requests)
        let decoded = try JSONDecoder().decode([String: SearchRequest].self, from: Data(json.output.string.utf8))
        #expect(decoded == Self.requests)
    }

    @Test func aSourceWithNothingOlderReadsBackAsNull() throws {
        let older: [String: SearchRequest?] = ["x": nil, "corpus": Self.requests["corpus"]]
        var json = JSONWriter()
        json.write(older)
        #expect(json.output.string.hasPrefix(#"{"corpus":{"#) && json.output.string.hasSuffix(#""x":null}"#))
        let decoded = try JSONDecoder().decode([String: SearchRequest?].self, from: Data(json.output.string.utf8))
        #expect(decoded == older)
    }

    @Test func noSourcesIsAnEmptyObject() {
        var json = JSONWriter()
        json.write([String: SearchRequest]())
        #expect(json.output.string == "{}")
    }
}
