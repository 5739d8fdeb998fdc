import AppStore
import Corpus
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveIndex
import NIOCore
import StubBluesky
import StubJetstream
import Testing

@testable import SmashtagWeb

/// `serve --ingest bluesky`: the server fills its corpus from a stand-in Jetstream while it serves, resolves the
/// authors at a stand-in AppView, and the Search page says the index is live and how far behind it is.
struct LiveIndexPageTests {
    static let did = "did:plc:weblive"
    static let handle = "web.example.com"

    /// Three posts tagged #firehose, seen by Jetstream a moment ago.
    static var events: [(time: Int64, json: String)] {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        return (0..<3).map { index in
            let text = "live post \(index) "
            let start = text.utf8.count
            let record =
                #"""
                {"$type":"app.bsky.feed.post","text":"\#(text)#firehose",\#
                "createdAt":"2026-11-23T10:00:0\#(index).000Z","langs":["en"],\#
                "facets":[{"index":{"byteStart":\#(start),"byteEnd":\#(start + 9)},\#
                "features":[{"$type":"app.bsky.richtext.facet#tag","tag":"firehose"}]}]}
                """#
            let time = now + Int64(index)
            return (
                time,
                #"""
                {"did":"\#(did)","time_us":\#(time),"kind":"commit","commit":{"rev":"r","operation":"create",\#
                "collection":"app.bsky.feed.post","rkey":"w\#(index)","cid":"c","record":\#(record)}}
                """#
            )
        }
    }

    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-live-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theSearchPageFindsTheIndexedPostsAndSaysTheIndexIsLive() async throws {
        let directory = try directory()
        let stub = StubJetstream(events: Self.events)
        try await StubBluesky.run { bluesky, port in
            bluesky.serveProfiles([Self.did: Self.handle])
            try await stub.run { url in
                var arguments = TestArguments(dataDirectory: directory)
                arguments.liveIndex = LiveIndexSettings(url: url, appView: "http://127.0.0.1:\(port)")
                let app = try await buildApplication(arguments)
                try await app.test(.live) { client in
                    var body = ""
                    for _ in 0..<300 {
                        body = try await client.execute(uri: "/search?q=from%3A\(Self.handle)", method: .get) {
                            String(buffer: $0.body)
                        }
                        if body.components(separatedBy: "class=\"post\"").count - 1 == 3 { break }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    #expect(
                        body.components(separatedBy: "class=\"post\"").count - 1 == 3,
                        "the three posts, found by their resolved author")
                    // How far behind is the time since the last event: the stand-in sends three and falls quiet.
                    #expect(body.contains("Live index of Bluesky: 3 posts, "))
                    #expect(
                        body.contains("Name of \(Self.handle)") && !body.contains("Sample"),
                        "the resolved name, and no demo")
                }
            }
        }
        #expect(try await SQLiteCorpus.open(at: directory + "/corpus.sqlite").info(CorpusNote.liveIndex) == "bluesky")
    }

    @Test func beforeItsFirstCommitTheIndexIsConnecting() {
        #expect(LiveIndexNote(nil).sentence == "Live index of Bluesky: connecting to the firehose…")
    }

    @Test func aCorpusHoldingTheDemoIsNotMadeALiveIndex() async throws {
        let directory = try await WebFixture.dataDirectory()
        var arguments = TestArguments(dataDirectory: directory)
        arguments.liveIndex = LiveIndexSettings(url: "ws://127.0.0.1:9/subscribe", appView: "http://127.0.0.1:9")
        await #expect(throws: LiveIndexError.self) { try await Site.open(arguments, logger: WebFixture.quietLogger) }
    }
}
