import Bluesky
import Corpus
import Logging
import Posts
import Synchronization

/// The live index: Jetstream's stream into the corpus until cancelled, its authors resolved alongside. It resumes
/// from the cursor committed last (a few seconds back); after a dropped connection it asks for the events from the
/// last one it received, which the batch being written holds. Cancelled, it commits what it has received and
/// returns.
public struct JetstreamLiveIndex: Sendable {
    /// One of Bluesky's public Jetstream hosts; `SMASHTAG_JETSTREAM_URL` chooses another.
    public static let defaultURL = JetstreamConnection.defaultURL
    /// Bluesky's public AppView, where authors are resolved; `SMASHTAG_BLUESKY_APPVIEW` chooses another.
    public static let defaultAppView = ProfileDirectory.defaultAppView
    /// Events received but not yet applied: past this the socket is not read until the corpus catches up, so a
    /// slow disk holds Jetstream back (it resumes from the cursor if it drops us) instead of filling memory.
    static let mostQueued = 20_000
    let ingester: JetstreamIngester
    let connection: JetstreamConnection
    let resolver: ProfileResolver

    public init(corpus: TweetCorpus, url: String, appView: String = Self.defaultAppView, options: LiveIndexOptions = .init(), logger: Logger) {
        ingester = JetstreamIngester(corpus: corpus, options: options)
        connection = JetstreamConnection(url: url, logger: logger)
        resolver = ProfileResolver(corpus: corpus, directory: ProfileDirectory(appView: appView, logger: logger), logger: logger)
    }

    public func run(progress: @escaping (IngestProgress) -> Void = { _ in }) async throws -> IngestProgress {
        let corpus = ingester.corpus
        try await corpus.setInfo(TweetCorpus.liveIndexKey, "bluesky")
        let start = IngestProgress(stored: try await corpus.tweetCount())
        let (events, reader) = stream(from: try await ingester.resumeCursor())
        let resolving = Task { [resolver] in await resolver.run() }
        defer { resolving.cancel() }
        return try await withTaskCancellationHandler {
            try await ingester.ingest(events, from: start, progress: progress)
        } onCancel: {
            reader.cancel()
        }
    }

    /// The stream's events, with a tick every flush interval so a quiet stream's batch is committed; the reader
    /// task ends it when cancelled.
    private func stream(from start: Int64?) -> (sequence: some AsyncSequence<IngestEvent, any Error>, reader: Task<Void, Never>) {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: IngestEvent.self)
        let received = Mutex<Int64?>(nil)
        let queued = Atomic(0)
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
                    while queued.load(ordering: .relaxed) >= Self.mostQueued, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                    let event = IngestEvent(message: message, where: "Jetstream")
                    if case .event(let decoded) = event { received.withLock { $0 = decoded.cursor } }
                    queued.add(1, ordering: .relaxed)
                    continuation.yield(event)
                }
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let sequence = events.map { event in
            if case .tick = event {} else { queued.subtract(1, ordering: .relaxed) }
            return event
        }
        return (sequence, reader)
    }
}
