import Corpus
import Posts

/// The demo corpus, generated on first use of an empty corpus.
enum DemoSetup {
    static func ensureDemo(in corpus: TweetCorpus) async throws {
        guard try await corpus.needsDemo() else { return }
        StandardError.write("smashtag: the corpus is empty; generating the demo corpus (\(grouped(DemoCorpus.defaultCount)) tweets)…")
        var progress = ProgressLine()
        try await DemoCorpus.generate(into: corpus) { stored in
            progress.show { _ in "Generating: \(grouped(stored)) of \(grouped(DemoCorpus.defaultCount)) tweets" }
        }
        progress.clear()
    }
}
