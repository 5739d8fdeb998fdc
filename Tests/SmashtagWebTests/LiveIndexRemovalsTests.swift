import AppStore
import Corpus
import Foundation
import LiveIndex
import Logging
import Posts
import SmashtagApp
import Testing

/// Issue 51: what Jetstream deletes — a post, or every post of an account taken down — leaves the counts of the terms
/// that counted it, not only the live index: the ingester tells once its batch is committed, and `LiveIndexRemovals`
/// takes those posts out of the store (what `serve --ingest bluesky` and `smashtag ingest` wire together).
struct LiveIndexRemovalsTests {
    static let did = "did:plc:removals"

    private static func event(_ json: String) -> IngestEvent {
        IngestEvent(message: Array(json.utf8), where: "test")
    }

    private static func create(_ index: Int) -> IngestEvent {
        let tag = index % 2 == 0 ? " #live" : ""
        let facet =
            tag.isEmpty
            ? ""
            : #","facets":[{"index":{"byteStart":7,"byteEnd":12},"features":"#
                + #"[{"$type":"app.bsky.richtext.facet#tag","tag":"live"}]}]"#
        return event(
            #"""
            {"did":"\#(did)","time_us":\#(1_000 + index),"kind":"commit","commit":{"rev":"r","operation":"create",\#
            "collection":"app.bsky.feed.post","rkey":"k\#(index)","cid":"c","record":{"$type":"app.bsky.feed.post",\#
            "text":"post \#(index)\#(tag)","createdAt":"2024-11-22T18:26:40.000Z"\#(facet)}}}
            """#)
    }

    private func feed(_ events: [IngestEvent]) -> AsyncThrowingStream<IngestEvent, any Error> {
        AsyncThrowingStream { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish()
        }
    }

    private func liveCount(_ database: AppDatabase) async throws -> Int {
        try await Popularity(database: database).table(for: "#live").sections.flatMap(\.rows)
            .first { $0.mention == "#live" }?.count ?? 0
    }

    @Test func aDeletedPostAndATakenDownAccountLeaveTheCounts() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let database = try AppDatabase.inMemory()
        let removals = LiveIndexRemovals(database: database)
        let ingester = JetstreamIngester(corpus: corpus)
        var progress = try await ingester.ingest(feed((0..<8).map(Self.create)))
        _ = try await SearchSessions(database: database).fetch(
            "#live", from: SourceSet(only: CorpusSource(corpus: corpus)), at: .newest, count: 100)
        #expect(try await liveCount(database) == 4, "four posts tagged #live, counted")

        let delete = Self.event(
            #"""
            {"did":"\#(Self.did)","time_us":2000,"kind":"commit","commit":{"rev":"r","operation":"delete",\#
            "collection":"app.bsky.feed.post","rkey":"k0"}}
            """#)
        progress = try await ingester.ingest(
            feed([delete]), from: progress, removed: { #expect((try? await removals.apply($0)) == 1) })
        #expect(try await liveCount(database) == 3, "the deleted post's count went with it")

        let takenDown = Self.event(
            #"""
            {"did":"\#(Self.did)","time_us":3000,"kind":"account","account":{"active":false,"did":"\#(Self.did)",\#
            "seq":2,"status":"takendown","time":"2024-11-22T18:26:40.000Z"}}
            """#)
        var told: [LiveRemoval] = []
        _ = try await ingester.ingest(
            feed([takenDown]), from: progress,
            removed: { removed in
                told += removed
                await removals.apply(removed, logger: Logger(label: "test"))
            })
        #expect(told == [.account(Self.did)])
        #expect(try await liveCount(database) == 0, "every post of the account left the counts")
        #expect(try await database.storedPostIDs().isEmpty)
        #expect(try await corpus.postCount() == 0)
    }
}
