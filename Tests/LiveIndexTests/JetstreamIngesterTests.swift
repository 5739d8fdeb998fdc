import Corpus
import Foundation
import LiveIndex
import Logging
import Posts
import StubJetstream
import TestSupport
import Testing

/// Jetstream's events into the corpus: creates stored and searchable, deletes gone, a cursor committed with each
/// batch; a stream replayed after a restart (or a failure mid-way) stores every post exactly once.
struct JetstreamIngesterTests {
    static let did = "did:plc:ingest"

    /// A create event at `time` (µs), its text `text`.
    static func create(_ rkey: String, _ text: String, time: Int64) -> [UInt8] {
        Array(
            #"""
            {"did":"\#(did)","time_us":\#(time),"kind":"commit","commit":{"rev":"r","operation":"create",\#
            "collection":"app.bsky.feed.post","rkey":"\#(rkey)","cid":"c","record":{"$type":"app.bsky.feed.post",\#
            "text":"\#(text)","createdAt":"2024-11-22T18:26:40.000Z"}}}
            """#
            .utf8)
    }

    static func delete(_ rkey: String, time: Int64) -> [UInt8] {
        Array(
            #"""
            {"did":"\#(did)","time_us":\#(time),"kind":"commit","commit":{"rev":"r","operation":"delete",\#
            "collection":"app.bsky.feed.post","rkey":"\#(rkey)"}}
            """#
            .utf8)
    }

    static func uri(_ rkey: String) -> String { "at://\(did)/app.bsky.feed.post/\(rkey)" }

    static let stream: [[UInt8]] = [
        create("a", "first words", time: 1_000_000), create("b", "second words", time: 2_000_000),
        delete("a", time: 3_000_000),
        Array(
            #"""
            {"did":"did:plc:ingest","time_us":4000000,"kind":"identity","identity":{"did":"did:plc:ingest",\#
            "handle":"x.example.com"}}
            """#
            .utf8),
        Array(#"{"did":"did:plc:ingest","time_us":"#.utf8),
        create("c", "third words", time: 5_000_000),
    ]

    /// The events as a stream; a failure after `failingAfter` of them.
    private func feed(
        _ events: [[UInt8]], failingAfter limit: Int? = nil
    ) -> AsyncThrowingStream<IngestEvent, any Error> {
        AsyncThrowingStream { continuation in
            for (index, event) in events.enumerated() {
                if index == limit { return continuation.finish(throwing: CancellationError()) }
                continuation.yield(IngestEvent(message: event, where: "message \(index + 1)"))
            }
            continuation.finish()
        }
    }

    private func searched(_ corpus: any PostCorpus) async throws -> [String] {
        try await corpus.search(SearchQuery(parsing: "words"), .newest, count: 10).posts.map(\.id).sorted()
    }

    @Test(arguments: TestCorpus.available) func createsAreStoredDeletesRemovedAndTheCursorCommitted(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let ingester = JetstreamIngester(corpus: corpus, batchSize: 2)
        let progress = try await ingester.ingest(feed(Self.stream))
        #expect(try await searched(corpus) == [Self.uri("b"), Self.uri("c")])
        #expect(progress.posts == 3 && progress.deleted == 1 && progress.duplicates == 0 && progress.skipped == 1)
        #expect(progress.problems == ["message 5: a malformed Jetstream event: not JSON (line 1: expected a value)"])
        #expect(progress.cursor == 5_000_000)
        #expect(try await ingester.resumeCursor(overlap: 1_500_000) == 3_500_000)
    }

    /// An `account` event as Jetstream sends it: `active` and, when not active, the relay's `status`.
    static func account(_ did: String, active: Bool, status: String?, time: Int64) -> [UInt8] {
        let status = status.map { #","status":"\#($0)""# } ?? ""
        return Array(
            #"""
            {"did":"\#(did)","time_us":\#(time),"kind":"account","account":{"active":\#(active),"did":"\#(did)",\#
            "seq":1409753013,"time":"2024-11-22T18:26:40.000Z"\#(status)}}
            """#
            .utf8)
    }

    @Test(arguments: TestCorpus.available) func anAccountDeletedOrTakenDownTakesItsPostsAndADeactivatedOneKeepsThem(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let other = "did:plc:other"
        let otherCreate = String(decoding: Self.create("o", "other words", time: 1_500_000), as: UTF8.self)
            .replacingOccurrences(of: Self.did, with: other)
        let stream = [
            Self.create("a", "first words", time: 1_000_000), Array(otherCreate.utf8),
            Self.create("b", "second words", time: 2_000_000),
            Self.account(Self.did, active: false, status: "deactivated", time: 3_000_000),
            Self.account(other, active: true, status: nil, time: 3_500_000),
        ]
        var removed: [LiveRemoval] = []
        var progress = try await JetstreamIngester(corpus: corpus, batchSize: 2).ingest(
            feed(stream), removed: { removed += $0 })
        #expect(try await searched(corpus).count == 3, "a deactivated account may come back: its posts stay")
        #expect(removed.isEmpty)
        progress = try await JetstreamIngester(corpus: corpus, batchSize: 2).ingest(
            feed([
                Self.account(Self.did, active: false, status: "takendown", time: 4_000_000),
                Self.delete("o", time: 5_000_000),
            ]),
            from: progress, removed: { removed += $0 })
        #expect(
            try await searched(corpus) == ["at://\(other)/app.bsky.feed.post/o"], "a delete names its own author's post"
        )
        #expect(progress.deleted == 2 && progress.cursor == 5_000_000)
        #expect(removed == [.account(Self.did), .post(Self.uri("o"))], "told once committed, for the store's copies")
    }

    @Test(arguments: TestCorpus.available) func aStreamReplayedAfterARestartStoresEveryPostOnce(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let ingester = JetstreamIngester(corpus: corpus, batchSize: 2)
        _ = try await ingester.ingest(feed(Self.stream))
        let again = try await ingester.ingest(feed(Self.stream))
        #expect(try await searched(corpus) == [Self.uri("b"), Self.uri("c")])
        #expect(again.duplicates == 2, "b and c were stored; a, deleted, is stored and deleted again")
        #expect(try await corpus.postCount() == 2)
    }

    @Test(arguments: TestCorpus.available) func aFailureMidStreamLosesOnlyTheUncommittedBatch(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let ingester = JetstreamIngester(corpus: corpus, batchSize: 2)
        await #expect(throws: CancellationError.self) { try await ingester.ingest(feed(Self.stream, failingAfter: 3)) }
        // One batch (a, b) was committed; the delete of a was not.
        #expect(try await searched(corpus) == [Self.uri("a"), Self.uri("b")])
        #expect(try await corpus.info(JetstreamIngester.cursorKey) == "2000000")
        _ = try await ingester.ingest(feed(Self.stream))
        #expect(try await searched(corpus) == [Self.uri("b"), Self.uri("c")])
    }
}

/// The live index against a real WebSocket server that drops every connection after three events: it reconnects,
/// resumes from the last event it received, and ends with every post once and deleted posts gone.
struct JetstreamLiveIndexTests {
    @Test func aDroppedStreamResumesWhereItStoppedAndStoresEveryPostOnce() async throws {
        // Under load (the whole suite on two cores, or busy loops beside it) a connection to the stub sometimes
        // stalls until the test gives up: it connects, and neither events nor the close arrive. Its cause is not
        // found yet. Fresh attempts on a fresh stub and corpus tell that apart from an index that does not resume,
        // which fails all three.
        var attempt = try await resumeThroughDrops()
        for _ in 0..<2 where !attempt.finished { attempt = try await resumeThroughDrops() }
        #expect(attempt.finished, "the last event's cursor committed within 30 s")
        #expect(attempt.found == [JetstreamIngesterTests.uri("b"), JetstreamIngesterTests.uri("c")])
        #expect(attempt.connections.first == "wantedCollections=app.bsky.feed.post")
        // The frames just before a close are sometimes lost with it (on a busy machine): the next connection then
        // asks again from where the one before began, and loses nothing. The last events come only to a connection
        // asking from the third event: the index resumed from the last event it received.
        #expect(
            attempt.connections.dropFirst().contains("wantedCollections=app.bsky.feed.post&cursor=3000000"),
            "from the last event received: \(attempt.connections)")
    }

    /// Runs the live index against a stub that drops each connection after three events, until the last event's
    /// cursor is committed or 30 s have passed: the posts then searchable, and the connections the stub saw.
    private func resumeThroughDrops() async throws -> (finished: Bool, found: [String], connections: [String]) {
        // The stub's times are the events' own (the unreadable one, which has none, between its neighbours).
        let times: [Int64] = [1_000_000, 2_000_000, 3_000_000, 4_000_000, 4_500_000, 5_000_000]
        let events = zip(times, JetstreamIngesterTests.stream).map {
            (time: $0, json: String(decoding: $1, as: UTF8.self))
        }
        let stub = StubJetstream(events: events, dropAfter: 3)
        let corpus = try SQLiteCorpus.inMemory()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let finished = try await stub.run { url in
            // No AppView listens on port 9 (discard): authors stay unresolved, which the stream does not wait for.
            let index = try await JetstreamLiveIndex.open(
                corpus: corpus, settings: LiveIndexSettings(url: url, appView: "http://127.0.0.1:9"), logger: logger)
            let running = Task { try await index.run() }
            var finished = false
            for _ in 0..<600 where !finished {  // a generous 30 s: the whole suite shares two cores
                finished = try await corpus.info(JetstreamIngester.cursorKey) == "5000000"
                if !finished { try await Task.sleep(for: .milliseconds(50)) }
            }
            running.cancel()
            // Cancelled in a pause between connections, the index ends by throwing the cancellation: that is its stop.
            do { try await running.value } catch is CancellationError {}
            return finished
        }
        let found = try await corpus.search(SearchQuery(parsing: "words"), .newest, count: 10).posts.map(\.id).sorted()
        return (finished, found, stub.connections)
    }

    /// A stream that falls silent, its socket still answering pings (noticed after `silence`), or dead to pings too,
    /// as a half-open socket is (noticed by the pings, sooner): either way it is reopened from the cursor and nothing
    /// is lost. The test shortens the two periods (30 s and 10 s when serving, so reopened within a minute: see
    /// `theDefaultWatchReopensAStoppedStreamWithinAMinute`): its bound is then many times what it waits for, which a
    /// loaded machine does not outrun.
    @Test(arguments: [true, false]) func aStreamThatFallsSilentWithoutClosingIsReopenedFromItsCursor(
        answersPings: Bool
    ) async throws {
        let times: [Int64] = [1_000_000, 2_000_000, 3_000_000, 4_000_000, 4_500_000, 5_000_000]
        let events = zip(times, JetstreamIngesterTests.stream).map {
            (time: $0, json: String(decoding: $1, as: UTF8.self))
        }
        // Three events, then an open connection that sends nothing more.
        let stub = StubJetstream(events: events, silentAfter: 3, answersPings: answersPings)
        let corpus = try SQLiteCorpus.inMemory()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let clock = ContinuousClock()
        let started = clock.now
        let finished = try await stub.run { url in
            var settings = LiveIndexSettings(url: url, appView: "http://127.0.0.1:9")
            (settings.silence, settings.pingPeriod) = (.seconds(2), .milliseconds(500))
            let index = try await JetstreamLiveIndex.open(corpus: corpus, settings: settings, logger: logger)
            let running = Task { try await index.run() }
            var finished = false
            // Silence is noticed after 2 s; a minute is the bound on two loaded cores.
            while !finished, clock.now - started < .seconds(60) {
                finished = try await corpus.info(JetstreamIngester.cursorKey) == "5000000"
                if !finished { try await Task.sleep(for: .milliseconds(100)) }
            }
            running.cancel()
            do { try await running.value } catch is CancellationError {}
            return finished
        }
        #expect(finished, "every event committed after the stream was reopened")
        // Each reconnection asks from the cursor committed by then: the third event's once its batch is in (a slow
        // machine may notice the silence first, and ask from the start), the last one's after that (a stand-in that
        // answers no pings closes the later connections too). Never from an older one, and nothing twice.
        let cursors = stub.connections.map { query in
            query.split(separator: "&").first { $0.hasPrefix("cursor=") }.flatMap { Int64($0.dropFirst(7)) } ?? 0
        }
        #expect(cursors.count >= 2 && cursors.first == 0)
        #expect(cursors.allSatisfy { [0, 3_000_000, 5_000_000].contains($0) }, "\(stub.connections)")
        #expect(zip(cursors.dropFirst(), cursors.dropFirst(2)).allSatisfy { $0 <= $1 }, "\(stub.connections)")
        let found = try await corpus.search(SearchQuery(parsing: "words"), .newest, count: 10).posts.map(\.id)
        #expect(found.sorted() == [JetstreamIngesterTests.uri("b"), JetstreamIngesterTests.uri("c")])
    }

    /// Serving, a stream that stopped without closing is noticed after 30 s of silence at most (sooner by a missed
    /// pong) and reopened a second later: within a minute.
    @Test func theDefaultWatchReopensAStoppedStreamWithinAMinute() {
        let settings = LiveIndexSettings(url: "ws://127.0.0.1:9")
        #expect(settings.silence == .seconds(30))
        #expect(settings.pingPeriod == .seconds(10))
        #expect(settings.silence + .seconds(1) < .seconds(60))
    }
}
