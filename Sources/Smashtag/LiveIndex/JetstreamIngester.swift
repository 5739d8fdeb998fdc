import Bluesky
import Corpus
import Logging
import Posts
import Synchronization

/// Bluesky's posts indexed into the corpus from Jetstream's events (SPEC §7, live index): creates stored, deletes
/// removed, a batch per transaction with the stream's cursor saved in it, so a restart after a crash or a kill
/// resumes where the last commit left off and what it replays is stored once. An event that cannot be stored is
/// skipped and its reason reported once.
public struct JetstreamIngester: Sendable {
    /// Where the cursor (Jetstream's `time_us`) is kept, in the corpus's own notes.
    public static let cursorKey = "bluesky.jetstream.cursor"
    let corpus: TweetCorpus
    let batchSize: Int
    /// A live stream's batch is committed after this long even when it is not full, so posts are searchable soon.
    let flushInterval: Duration

    public init(corpus: TweetCorpus, batchSize: Int = 1_000, flushInterval: Duration = .seconds(1)) {
        self.corpus = corpus
        self.batchSize = batchSize
        self.flushInterval = flushInterval
    }

    /// The cursor a reconnect asks Jetstream for: the last one committed, a few seconds back, since Jetstream's
    /// order across its shards is only roughly by time.
    public func resumeCursor(overlap: Int64 = 5_000_000) async throws -> Int64? {
        try await corpus.info(Self.cursorKey).flatMap { Int64($0) }.map { max(0, $0 - overlap) }
    }

    /// Applies the events a batch at a time (full, or `flushInterval` after its first event); `progress` hears after
    /// each batch. Ends with the sequence.
    package func ingest(
        _ events: some AsyncSequence<IngestEvent, any Error>, progress: (IngestProgress) -> Void = { _ in }
    ) async throws -> IngestProgress {
        var total = IngestProgress()
        var batch = Batch()
        var started = ContinuousClock.now
        for try await event in events {
            if batch.cursor == nil { started = .now }
            batch.add(event, to: &total)
            guard batch.cursor != nil else { continue }
            guard batch.changes.count >= batchSize || ContinuousClock.now - started >= flushInterval else { continue }
            try await commit(&batch, into: &total)
            progress(total)
        }
        try await commit(&batch, into: &total)
        progress(total)
        return total
    }

    private func commit(_ batch: inout Batch, into total: inout IngestProgress) async throws {
        guard let cursor = batch.cursor else { return }
        let applied = try await corpus.apply(batch.changes, cursor: (Self.cursorKey, String(cursor)))
        total.record(applied, cursor: cursor)
        batch = Batch()
    }

    /// The changes since the last commit, and the cursor after them.
    private struct Batch {
        var changes: [StreamChange] = []
        var cursor: Int64?

        mutating func add(_ event: IngestEvent, to total: inout IngestProgress) {
            switch event {
            case .event(let event):
                cursor = event.cursor
                switch event {
                case .create(let post, _): changes.append(.create(post))
                case .delete(let uri, _): changes.append(.delete(uri))
                case .identity, .other: break
                }
            case .unreadable(let place, let reason): total.skip(reason, at: place)
            case .tick: break
            }
        }
    }
}

/// One event from the stream (or a file of events), or why one could not be read.
package enum IngestEvent: Sendable {
    case event(JetstreamEvent)
    /// `where`: a line of a file, or the stream.
    case unreadable(where: String, reason: String)
    /// Time passing on a quiet stream: a batch waiting longer than the flush interval is committed.
    case tick

    /// One message of the stream, or a line of a file of events (`place` says which, for the report).
    package init(message bytes: [UInt8], where place: String) {
        do { self = .event(try JetstreamEvent.decode(bytes)) } catch { self = .unreadable(where: place, reason: error.description) }
    }
}

/// What an ingest has done so far.
public struct IngestProgress: Sendable, Equatable {
    public private(set) var posts = 0
    /// Creates replayed after a restart, already stored.
    public private(set) var duplicates = 0
    public private(set) var deleted = 0
    public private(set) var skipped = 0
    /// The cursor of the last commit.
    public private(set) var cursor: Int64?
    /// Each reason an event was skipped, the first time it was: "line 3: a malformed Jetstream event: no did".
    public private(set) var problems: [String] = []
    private var reasons: Set<String> = []

    mutating func record(_ applied: AppliedChanges, cursor: Int64) {
        (posts, duplicates, deleted) = (posts + applied.inserted, duplicates + applied.duplicates, deleted + applied.deleted)
        self.cursor = cursor
    }

    mutating func skip(_ reason: String, at place: String) {
        skipped += 1
        if reasons.insert(reason).inserted { problems.append("\(place): \(reason)") }
    }
}

/// The live index: Jetstream's stream into the corpus until cancelled. It resumes from the cursor committed last (a
/// few seconds back); after a dropped connection it asks for the events from the last one it received, which the
/// batch being written holds. Cancelled, it commits what it has received and returns.
public struct JetstreamLiveIndex: Sendable {
    /// One of Bluesky's public Jetstream hosts; `SMASHTAG_JETSTREAM_URL` chooses another.
    public static let defaultURL = JetstreamConnection.defaultURL
    let ingester: JetstreamIngester
    let connection: JetstreamConnection

    public init(corpus: TweetCorpus, url: String, logger: Logger) {
        ingester = JetstreamIngester(corpus: corpus)
        connection = JetstreamConnection(url: url, logger: logger)
    }

    public func run(progress: @escaping (IngestProgress) -> Void = { _ in }) async throws -> IngestProgress {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: IngestEvent.self)
        try await ingester.corpus.setInfo(TweetCorpus.liveIndexKey, "bluesky")
        let start = try await ingester.resumeCursor()
        let received = Mutex<Int64?>(nil)
        let reader = Task { [connection, flush = ingester.flushInterval] in
            let ticker = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: flush)
                    continuation.yield(.tick)
                }
            }
            defer { ticker.cancel() }
            do {
                try await connection.run(cursor: { received.withLock { $0 } ?? start }) { message in
                    let event = IngestEvent(message: message, where: "Jetstream")
                    if case .event(let decoded) = event { received.withLock { $0 = decoded.cursor } }
                    continuation.yield(event)
                }
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return try await withTaskCancellationHandler {
            try await ingester.ingest(events, progress: progress)
        } onCancel: {
            reader.cancel()
        }
    }
}
