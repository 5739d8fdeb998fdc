import Corpus

/// The demo corpus, generated on first use of an empty corpus.
enum DemoSetup {
    static func ensureDemo(in corpus: TweetCorpus) async throws {
        // Filled in with the demo generator.
    }
}
