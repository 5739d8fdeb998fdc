import AppStore
import Corpus
import DemoCorpus
import LiveIndex
import Logging
import Posts

/// The local corpus as `serve` and the commands open it: filled with the demo on first use (an empty corpus that no
/// live index owns), with the demo's live tweeter when it holds the demo, or as the live index that fills it.
public struct LocalCorpus: Sendable {
    public let corpus: any LiveIndexCorpus
    public let source: CorpusSource
    /// Keeps the demo alive (new posts every few seconds); nil unless the corpus holds the demo.
    public let tweeter: DemoTweeter?
    /// Fills the corpus from Bluesky's firehose; nil unless asked for.
    public let liveIndex: JetstreamLiveIndex?

    /// What the Search page's toggle and a failure call it.
    public var title: String { liveIndex == nil ? "Corpus" : "Bluesky live index" }

    /// The corpus in PostgreSQL beside the app store when the store is there, else in the data directory's SQLite file.
    public static func corpus(
        in directory: DataDirectory, sharing database: AppDatabase
    ) async throws
        -> any LiveIndexCorpus
    {
        guard let pool = database.postgres else { return try await SQLiteCorpus.open(at: directory.corpus) }
        return try await PostgresCorpus.open(in: pool)
    }

    /// `corpus`, ready: with `liveIndex` settings it becomes that index; otherwise an empty one is filled with the
    /// demo first — once, by the first of the servers sharing it —, `demoProgress` hearing how many of how many posts
    /// are stored (0 first).
    public static func open(
        _ corpus: any LiveIndexCorpus, liveIndex settings: LiveIndexSettings? = nil, logger: Logger,
        demoProgress: @escaping @Sendable (_ stored: Int, _ count: Int) -> Void = { _, _ in }
    ) async throws -> LocalCorpus {
        if let settings {
            let index = try await JetstreamLiveIndex.open(corpus: corpus, settings: settings, logger: logger)
            return LocalCorpus(corpus: corpus, source: CorpusSource(corpus: corpus), tweeter: nil, liveIndex: index)
        }
        try await corpus.alone {
            if try await corpus.needsDemo() {
                try await Demo.generate(into: corpus) { demoProgress($0, Demo.defaultCount) }
            }
        }
        let tweeter = try await Demo.seed(of: corpus).map { DemoTweeter(corpus: corpus, seed: $0) }
        return LocalCorpus(corpus: corpus, source: CorpusSource(corpus: corpus), tweeter: tweeter, liveIndex: nil)
    }

    /// The query a first visit shows: the demo's most popular hashtag, else `#swift`.
    public var defaultQuery: String {
        tweeter == nil ? "#swift" : "#" + (DemoGenerator.popularHashtags.first ?? "swift")
    }
}
