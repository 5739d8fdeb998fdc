import Foundation
import StubBluesky
import StubJetstream
import Testing

/// `smashtag ingest bluesky` against a stand-in Jetstream and AppView: killed with SIGKILL mid-stream and started
/// again, it ends with every post stored once and the deleted ones gone, found by word, `#tag` and `from:handle`;
/// SIGTERM stops it cleanly with a summary.
struct IngestCommandTests {
    static let did = "did:plc:cli"
    static let start: Int64 = 1_732_300_000_000_000

    static let handle = "cli.example.com"

    /// 80 posts (every third tagged #live), then deletes of every tenth.
    static var events: [(time: Int64, json: String)] {
        let creates = (0..<80).map { index in
            (
                time: start + Int64(index) * 1_000,
                json:
                    #"""
                {"did":"\#(did)","time_us":\#(start + Int64(index) * 1_000),"kind":"commit","commit":{"rev":"r",\#
                "operation":"create","collection":"app.bsky.feed.post","rkey":"k\#(index)","cid":"c",\#
                "record":\#(record(index))}}
                """#
            )
        }
        let deletes = stride(from: 0, to: 80, by: 10).enumerated().map { order, index in
            (
                time: start + Int64(80 + order) * 1_000,
                json:
                    #"""
                {"did":"\#(did)","time_us":\#(start + Int64(80 + order) * 1_000),"kind":"commit","commit":{"rev":"r",\#
                "operation":"delete","collection":"app.bsky.feed.post","rkey":"k\#(index)"}}
                """#
            )
        }
        return creates + deletes
    }

    static func record(_ index: Int) -> String {
        let text = "ingested post \(index)"
        guard index % 3 == 0 else {
            return #"{"$type":"app.bsky.feed.post","text":"\#(text)","createdAt":"2024-11-22T18:26:40.000Z"}"#
        }
        let facet =
            #"""
            {"index":{"byteStart":\#(text.utf8.count + 1),"byteEnd":\#(text.utf8.count + 6)},\#
            "features":[{"$type":"app.bsky.richtext.facet#tag","tag":"live"}]}
            """#
        return
            #"""
            {"$type":"app.bsky.feed.post","text":"\#(text) \#
            #live","createdAt":"2024-11-22T18:26:40.000Z","facets":[\#(facet)]}
            """#
    }

    private func ingest(_ directory: String, url: String, appView: Int) throws -> ChildProcess {
        try ChildProcess(
            SmashtagRun.executable, ["ingest", "bluesky", "--data-dir", directory],
            environment: ["SMASHTAG_JETSTREAM_URL": url, "SMASHTAG_BLUESKY_APPVIEW": "http://127.0.0.1:\(appView)"],
            output: .pipe)
    }

    /// The ids `smashtag search` finds (by default for a word of every post).
    private func found(_ directory: String, _ query: String = "ingested") async throws -> [String] {
        let run = try await SmashtagRun.run([
            "search", query, "--count", "100", "--format", "json", "--data-dir", directory,
        ])
        // Before the ingester has written anything the corpus does not exist yet: nothing found.
        let document = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return (document?["tweets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    private func waitUntil(_ directory: String, _ done: ([String]) -> Bool) async throws -> [String] {
        var ids: [String] = []
        // A bound, not a pace: a loaded machine takes longer, and the loop ends as soon as the condition holds.
        for _ in 0..<600 {
            ids = try await found(directory)
            if done(ids) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return ids
    }

    @Test func killedMidStreamAndRestartedItStoresEveryPostOnce() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let stub = StubJetstream(events: Self.events, pace: .milliseconds(20))
        try await StubBluesky.run { appView, port in
            appView.serveProfiles([Self.did: Self.handle])
            try await stub.run { url in
                let first = try ingest(directory, url: url, appView: port)
                try await Task.sleep(for: .milliseconds(500))  // marked a live index before any search looks
                let before = try await waitUntil(directory) { $0.count >= 10 }
                kill(first.processIdentifier, SIGKILL)
                try await SmashtagRun.exit(of: first)
                #expect(before.count >= 10 && before.count < 80, "killed mid-stream: \(before.count) stored")
                let second = try ingest(directory, url: url, appView: port)
                // The whole stream's end, not a count: 72 posts are also stored on the way to the 80 before the
                // deletes.
                let kept = Set((0..<80).filter { $0 % 10 != 0 }.map { "at://\(Self.did)/app.bsky.feed.post/k\($0)" })
                let after = try await waitUntil(directory) { Set($0) == kept }
                try await Task.sleep(for: .milliseconds(1500))  // anything replayed twice would show by now
                let settled = try await found(directory)
                let byAuthor = try await found(directory, "from:\(Self.handle)")
                let byTag = try await found(directory, "#live")
                kill(second.processIdentifier, SIGTERM)
                try await SmashtagRun.exit(of: second)
                let summary = String(
                    decoding: try await SmashtagRun.offThePool { second.output?.readDataToEndOfFile() ?? Data() },
                    as: UTF8.self)
                #expect(after.count == 72 && settled.count == 72 && Set(settled).count == 72)
                #expect(
                    !settled.contains("at://\(Self.did)/app.bsky.feed.post/k10")
                        && settled.contains("at://\(Self.did)/app.bsky.feed.post/k11"))
                #expect(second.terminationStatus == 0 && summary.hasPrefix("Stored "), "\(summary)")
                #expect(stub.connections.last?.contains("&cursor=") == true, "the restart resumed from its cursor")
                #expect(Set(byAuthor) == Set(settled), "every post found by its author's handle once resolved")
                #expect(byTag.count == 24 && byTag.allSatisfy(settled.contains), "27 tagged, 3 of them deleted")
            }
        }
    }
}
