import Corpus
import Posts
import Twitter

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The demo corpus: generated tweets stored in the corpus, so Smashtag works offline from its first start.
public enum Demo {
    public static let defaultSeed: UInt64 = 2009
    /// Enough to explore; small enough that the first start takes a few seconds.
    public static let defaultCount = 20_000

    /// Generates `count` tweets ending at `end` into the corpus, a batch per transaction; `progress` hears the
    /// number stored so far.
    public static func generate(
        into corpus: any PostCorpus, seed: UInt64 = defaultSeed, count: Int = defaultCount, end: Date = .now,
        progress: (Int) -> Void = { _ in }
    ) async throws {
        try await corpus.setInfo(CorpusNote.demoSeed, String(seed))
        var generator = DemoGenerator(seed: seed, count: count, end: end)
        var stored = 0
        progress(stored)
        try await corpus.add(
            batches: { generator.next(5_000) },
            written: { added in
                stored += added.inserted
                progress(stored)
            })
    }

    /// Whether the corpus holds a demo (a live tweeter then has someone to tweet as).
    public static func seed(of corpus: any PostCorpus) async throws -> UInt64? {
        try await corpus.info(CorpusNote.demoSeed).flatMap { UInt64($0) }
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
