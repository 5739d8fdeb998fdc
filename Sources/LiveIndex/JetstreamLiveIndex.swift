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
    /// Events received but not yet applied: past this the socket is not read until the corpus catches up, so a
    /// slow disk holds Jetstream back (it resumes from the cursor if it drops us) instead of filling memory.
    static let mostQueued = 20_000
    let ingester: JetstreamIngester
    let connection: JetstreamConnection
    let resolver: ProfileResolver

    /// The index for `corpus`, marked as a live index's (never filled with the demo). A corpus that holds the demo
    /// cannot be one: its made-up posts would mix with Bluesky's.
    public static func open(
        corpus: any LiveIndexCorpus, settings: LiveIndexSettings, logger: Logger
    ) async throws -> JetstreamLiveIndex {
        if try await corpus.info(CorpusNote.demoSeed) != nil { throw LiveIndexError.holdsTheDemo }
        try await corpus.setInfo(CorpusNote.liveIndex, "bluesky")
        return JetstreamLiveIndex(corpus: corpus, settings: settings, logger: logger)
    }

    private init(corpus: any LiveIndexCorpus, settings: LiveIndexSettings, logger: Logger) {
        ingester = JetstreamIngester(corpus: corpus, options: settings.options)
        connection = JetstreamConnection(
            url: settings.url, logger: logger, silence: settings.silence, pingPeriod: settings.pingPeriod)
        resolver = ProfileResolver(
            corpus: corpus, directory: ProfileDirectory(appView: settings.appView, logger: logger), logger: logger)
    }

    /// Runs until cancelled; `removed` hears what left the corpus with each batch once it is committed.
    public func run(
        progress: @escaping (IngestProgress) -> Void = { _ in },
        removed: @escaping @Sendable ([LiveRemoval]) async -> Void = { _ in }
    ) async throws -> IngestProgress {
        let corpus = ingester.corpus
        let start = IngestProgress(stored: try await corpus.postCount())
        let (events, reader) = stream(from: try await ingester.resumeCursor())
        let resolving = Task { [resolver] in await resolver.run() }
        defer { resolving.cancel() }
        return try await withTaskCancellationHandler {
            try await ingester.ingest(events, from: start, progress: progress, removed: removed)
        } onCancel: {
            reader.cancel()
        }
    }

    /// The stream's events, with a tick every flush interval so a quiet stream's batch is committed; the reader
    /// task ends it when cancelled.
    private func stream(
        from start: Int64?
    ) -> (events: some AsyncSequence<IngestEvent, any Error>, reader: Task<Void, Never>) {
        let queue = IngestQueue(limit: Self.mostQueued)
        let received = Mutex<Int64?>(nil)
        let reader = Task { [connection, flush = ingester.flushInterval] in
            let ticker = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: flush)
                    queue.tick()
                }
            }
            defer { ticker.cancel() }
            do {
                try await connection.run(cursor: { received.withLock { $0 } ?? start }) { message in
                    let event = IngestEvent(message: message, where: "Jetstream")
                    if case .event(let decoded) = event { received.withLock { $0 = decoded.cursor } }
                    await queue.put(event)
                }
            } catch is CancellationError {
                queue.finish()
            } catch {
                queue.finish(throwing: error)
            }
        }
        return (queue.events, reader)
    }
}

/// Where a live index reads from and what it keeps.
public struct LiveIndexSettings: Sendable {
    /// One of Bluesky's public Jetstream hosts; `SMASHTAG_JETSTREAM_URL` chooses another.
    public static let defaultURL = JetstreamConnection.defaultURL
    /// Bluesky's public AppView, where authors are resolved; `SMASHTAG_BLUESKY_APPVIEW` chooses another.
    public static let defaultAppView = ProfileDirectory.defaultAppView

    public let url: String
    public let appView: String
    public let options: LiveIndexOptions
    /// A stream silent this long is reopened from the cursor: Jetstream carries every post on Bluesky, several a
    /// second, so half a minute of nothing is a dead stream.
    public var silence = JetstreamConnection.silenceLimit
    /// WebSocket pings this often, a missing pong closing the connection (a half-open socket, noticed sooner).
    /// Either way a stream that stopped without closing is reopened within a minute.
    public var pingPeriod = JetstreamConnection.pingPeriod

    public init(
        url: String = Self.defaultURL, appView: String = Self.defaultAppView, options: LiveIndexOptions = .init()
    ) {
        (self.url, self.appView, self.options) = (url, appView, options)
    }

    /// The addresses from `SMASHTAG_JETSTREAM_URL` and `SMASHTAG_BLUESKY_APPVIEW`, else the defaults.
    public init(environment: [String: String], options: LiveIndexOptions) {
        self.init(
            url: environment["SMASHTAG_JETSTREAM_URL"] ?? Self.defaultURL,
            appView: environment["SMASHTAG_BLUESKY_APPVIEW"] ?? Self.defaultAppView, options: options)
    }
}

/// Why a live index cannot start.
public enum LiveIndexError: Error, Sendable, ExplainedError {
    case holdsTheDemo

    public var description: String {
        switch self {
        case .holdsTheDemo:
            """
            This corpus holds the demo, which a live index must not mix with Bluesky's posts: choose another data \
            directory with --data-dir (or SMASHTAG_HOME), or with --database another PostgreSQL database.
            """
        }
    }
}
