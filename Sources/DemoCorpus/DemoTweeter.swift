import Corpus

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Keeps the demo alive: a new tweet on the popular hashtags every few seconds, so *newer* and live popularity
/// have something to show. Run it for as long as the server runs; cancel the task to stop it.
public struct DemoTweeter: Sendable {
    public let corpus: any PostCorpus
    public let seed: UInt64
    public let interval: Duration

    public init(corpus: any PostCorpus, seed: UInt64, interval: Duration = .seconds(5)) {
        self.corpus = corpus
        self.seed = seed
        self.interval = interval
    }

    /// Tweets until the task is cancelled.
    public func run() async throws {
        var generator = DemoGenerator(seed: seed, count: 0, end: .now)
        while true {
            try await Task.sleep(for: interval)
            _ = try await corpus.add([generator.liveTweet(at: .now)])
        }
    }
}
