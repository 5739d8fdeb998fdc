#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Posts
import Twitter

/// The demo corpus: generated tweets stored in the corpus, so Smashtag works offline from its first start.
public enum DemoCorpus {
    public static let defaultSeed: UInt64 = 2009
    /// Enough to explore; small enough that the first start takes a few seconds.
    public static let defaultCount = 20_000
    /// The corpus notes the seed, so the live tweeter writes as the same users.
    static let seedKey = "demo.seed"

    /// Generates `count` tweets ending at `end` into the corpus, a batch per transaction; `progress` hears the
    /// number stored so far.
    public static func generate(
        into corpus: TweetCorpus, seed: UInt64 = defaultSeed, count: Int = defaultCount, end: Date = .now,
        progress: (Int) -> Void = { _ in }
    ) async throws {
        try await corpus.setInfo(seedKey, String(seed))
        var generator = DemoGenerator(seed: seed, count: count, end: end)
        var stored = 0
        progress(stored)
        try await corpus.add(batches: { generator.next(5_000) }) { added in
            stored += added.inserted
            progress(stored)
        }
    }

    /// Whether the corpus holds a demo (a live tweeter then has someone to tweet as).
    public static func seed(of corpus: TweetCorpus) async throws -> UInt64? {
        try await corpus.info(seedKey).flatMap { UInt64($0) }
    }
}

/// Keeps the demo alive: a new tweet on the popular hashtags every few seconds, so *newer* and live popularity
/// have something to show. Run it for as long as the server runs; cancel the task to stop it.
public struct DemoTweeter: Sendable {
    public let corpus: TweetCorpus
    public let seed: UInt64
    public let interval: Duration

    public init(corpus: TweetCorpus, seed: UInt64, interval: Duration = .seconds(5)) {
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

extension DemoGenerator {
    /// The next `count` tweets or fewer at the end. (`prefix` would read a copy: the generator would not advance.)
    public mutating func next(_ count: Int) -> [Post] {
        var tweets: [Post] = []
        tweets.reserveCapacity(count)
        while tweets.count < count, let tweet = next() { tweets.append(tweet) }
        return tweets
    }
}
