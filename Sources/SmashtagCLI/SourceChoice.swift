import AppStore
import Corpus
import Foundation
import Logging
import Posts
import SmashtagApp

/// Which sources a command searches: `--source`, else every configured one.
struct SourceChoice {
    let catalog: SourceCatalog
    let names: [SourceCatalog.Name]

    init(_ options: CommonOptions, directory: DataDirectory) throws {
        catalog = SourceCatalog(environment: ProcessInfo.processInfo.environment, dataDirectory: directory.path)
        do { names = try catalog.choose(options.source) } catch { throw CommandFailure(error.description) }
    }

    /// The chosen sources, the corpus with its demo generated first when it is chosen and empty.
    func open(in directory: DataDirectory, at location: StoreLocation) async throws -> SourceSet {
        let local = names.contains(.corpus) ? try await DemoSetup.openCorpus(in: directory, at: location) : nil
        return catalog.open(names, corpus: local?.source, logger: Logger(label: "smashtag"))
    }
}
