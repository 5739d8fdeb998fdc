import Corpus
import Foundation
import Twitter

/// Which source a command searches: `--source`, else the X API when a token is configured, else the corpus.
struct SourceChoice {
    let name: SourceName

    init(_ options: CommonOptions) {
        let token = ProcessInfo.processInfo.environment["SMASHTAG_X_BEARER_TOKEN"].map { !$0.isEmpty } ?? false
        name = options.source ?? (token ? .x : .corpus)
    }

    func open(in directory: DataDirectory) async throws -> any TweetSource {
        switch name {
        case .corpus:
            let corpus = try TweetCorpus.open(at: directory.corpus)
            try await DemoSetup.ensureDemo(in: corpus)
            return CorpusSource(corpus: corpus)
        case .x:
            throw CommandFailure("searching the X API is not available in this version of Smashtag; use --source corpus.")
        }
    }
}
