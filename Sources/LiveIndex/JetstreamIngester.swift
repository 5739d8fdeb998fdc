import Bluesky
import Corpus
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Bluesky's posts indexed into the corpus from Jetstream's events (live index): creates stored, deletes
/// removed, a batch per transaction with the stream's cursor saved in it, so a restart after a crash or a kill
/// resumes where the last commit left off and what it replays is stored once. An event that cannot be stored is
/// skipped and its reason reported once.
public struct JetstreamIngester: Sendable {
    /// Where the cursor (Jetstream's `time_us`) is kept, in the corpus's own notes.
    public static let cursorKey = "bluesky.jetstream.cursor"
    let corpus: any LiveIndexCorpus
    let options: LiveIndexOptions
    let batchSize: Int
    /// A live stream's batch is committed after this long even when it is not full, so posts are searchable soon.
    let flushInterval: Duration

    public init(
        corpus: any LiveIndexCorpus, options: LiveIndexOptions = .init(), batchSize: Int = 1_000,
        flushInterval: Duration = .seconds(1)
    ) {
        (self.corpus, self.options, self.batchSize, self.flushInterval) = (corpus, options, batchSize, flushInterval)
    }

    /// The cursor a reconnect asks Jetstream for: the last one committed, a few seconds back, since Jetstream's
    /// order across its shards is only roughly by time.
    public func resumeCursor(overlap: Int64 = 5_000_000) async throws -> Int64? {
        try await corpus.info(Self.cursorKey).flatMap { Int64($0) }.map { max(0, $0 - overlap) }
    }

    /// Applies the events a batch at a time (full, or `flushInterval` after its first event), pruning between
    /// batches when days are kept; `progress` hears after each batch, and `removed` of what left the corpus in it
    /// once it is committed (for the store's copies of those posts). Ends with the sequence.
    package func ingest(
        _ events: some AsyncSequence<IngestEvent, any Error>, from start: IngestProgress = .init(),
        progress: (IngestProgress) -> Void = { _ in }, removed: ([LiveRemoval]) async -> Void = { _ in }
    ) async throws -> IngestProgress {
        var total = start
        var batch = Batch()
        var retention = LiveIndexRetention(keepDays: options.keepDays)
        var started = ContinuousClock.now
        for try await event in events {
            if batch.cursor == nil { started = .now }
            batch.add(event, keeping: options, to: &total)
            guard batch.cursor != nil else { continue }
            guard batch.changes.count >= batchSize || ContinuousClock.now - started >= flushInterval else { continue }
            try await commit(&batch, into: &total, removed: removed)
            try await retention.prune(corpus, into: &total)
            progress(total)
        }
        try await commit(&batch, into: &total, removed: removed)
        progress(total)
        return total
    }

    private func commit(
        _ batch: inout Batch, into total: inout IngestProgress, removed: ([LiveRemoval]) async -> Void
    ) async throws {
        guard let cursor = batch.cursor else { return }
        let applied = try await corpus.apply(batch.changes, cursor: (Self.cursorKey, String(cursor)))
        total.record(applied, cursor: cursor, bytesOnDisk: try await corpus.bytesOnDisk())
        let removals = batch.changes.compactMap(LiveRemoval.init)
        batch = Batch()
        if !removals.isEmpty { await removed(removals) }
    }

    /// The changes since the last commit, and the cursor after them.
    private struct Batch {
        var changes: [StreamChange] = []
        var cursor: Int64?

        mutating func add(_ event: IngestEvent, keeping options: LiveIndexOptions, to total: inout IngestProgress) {
            switch event {
            case .event(let event):
                cursor = event.cursor
                switch event {
                case .create(let post, let languages, _):
                    if options.keeps(post, languages: languages) {
                        changes.append(.create(post))
                    } else {
                        total.passOver()
                    }
                case .delete(let uri, _): changes.append(.delete(uri))
                case .identity(let did, _): changes.append(.identity(did))
                case .accountGone(let did, _): changes.append(.removeAccount(did))
                case .other: break
                }
            case .unreadable(let place, let reason): total.skip(reason, at: place)
            case .tick: break
            }
        }
    }
}

/// What left the live index with a batch: a post its author deleted (its `at://` URI), or every post of an account
/// that is gone (its DID).
public enum LiveRemoval: Sendable, Equatable {
    case post(String)
    case account(String)

    init?(_ change: StreamChange) {
        switch change {
        case .delete(let uri): self = .post(uri)
        case .removeAccount(let did): self = .account(did)
        case .create, .identity: return nil
        }
    }
}

/// Removes posts older than the days kept: once a minute, and meanwhile a bounded number each time, so a large
/// backlog (days cut from 30 to 1) is cleared between commits without holding the stream up.
struct LiveIndexRetention {
    /// Posts removed per transaction, and transactions per turn.
    static let (chunk, chunksPerTurn) = (200, 5)
    let keepDays: Int?
    private var due = ContinuousClock.now

    init(keepDays: Int?) {
        self.keepDays = keepDays
    }

    mutating func prune(_ corpus: any LiveIndexCorpus, into total: inout IngestProgress) async throws {
        guard let keepDays, ContinuousClock.now >= due else { return }
        let cutoff = Date(timeIntervalSinceNow: -Double(keepDays) * 86_400)
        for _ in 0..<Self.chunksPerTurn {
            let removed = try await corpus.prune(.bluesky, before: cutoff, limit: Self.chunk)
            total.recordPruned(removed)
            if removed < Self.chunk {
                due = .now + .seconds(60)
                return
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
        do { self = .event(try JetstreamEvent.decode(bytes)) } catch {
            self = .unreadable(where: place, reason: error.description)
        }
    }
}
