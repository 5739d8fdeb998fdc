import Corpus
import Foundation
import Logging
import Posts
import Smashtag

/// Which sources a command searches: `--source`, else every configured one (SPEC §7).
struct SourceChoice {
    let catalog: SourceCatalog
    let names: [SourceCatalog.Name]

    init(_ options: CommonOptions, directory: DataDirectory) throws {
        catalog = SourceCatalog(environment: ProcessInfo.processInfo.environment, dataDirectory: directory.path)
        do { names = try catalog.choose(options.source) } catch { throw CommandFailure(error.description) }
    }

    /// The chosen sources, the corpus with its demo generated first when it is chosen and empty.
    func open(in directory: DataDirectory) async throws -> SourceSet {
        var corpus: CorpusSource?
        if names.contains(.corpus) {
            let store = try TweetCorpus.open(at: directory.corpus)
            try await DemoSetup.ensureDemo(in: store)
            corpus = CorpusSource(corpus: store)
        }
        return catalog.open(names, corpus: corpus, logger: Logger(label: "smashtag"))
    }
}
