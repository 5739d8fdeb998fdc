import Corpus
import Foundation
import Logging
import Smashtag
import Posts
import Twitter

/// Everything the controllers share: the sources, the app database, the static files.
struct Site: Sendable {
    /// Every source the Search page offers, in the catalogue's order.
    let sources: SourceSet
    let database: AppDatabase
    /// One for the whole server: it remembers the last search that changed nothing, so a repeated one is answered
    /// without asking the database again.
    let sessions: SearchSessions
    let publicDirectory: String
    let assets: StaticAssets
    let defaultQuery: String
    let demoTweeter: DemoTweeter?
    /// `serve --ingest bluesky`: the index filling the corpus, and its progress for the pages.
    let liveIndex: LiveIndex?
    let logger: Logger

    struct LiveIndex: Sendable {
        let index: JetstreamLiveIndex
        let status: LiveIndexStatus
    }

    static func open(_ arguments: some AppArguments, logger: Logger) async throws -> Site {
        guard let resources = Bundle.module.resourcePath else { throw SiteError.missingResources }
        guard let assets = StaticAssets.bundled else { throw SiteError.missingResources }
        let database = try await AppDatabase.open(url: arguments.database, orFileAt: arguments.dataDirectory + "/smashtag.sqlite", logger: logger)
        let names = arguments.sourceNames
        let opened = names.contains(.corpus) ? try await openCorpus(arguments, logger: logger) : nil
        let live = opened?.live
        let sources = arguments.catalog.open(names, corpus: opened?.source, corpusTitle: live == nil ? "Corpus" : "Bluesky live index", logger: logger)
        let query = opened?.tweeter == nil ? "#swift" : "#" + (DemoGenerator.popularHashtags.first ?? "swift")
        return Site(sources: sources, database: database, sessions: SearchSessions(database: database),
                    publicDirectory: resources + "/Public", assets: assets,
                    defaultQuery: query, demoTweeter: opened?.tweeter, liveIndex: live, logger: logger)
    }

    /// The corpus (the demo generated on first use), with its live tweeter if it holds the demo, or the live index
    /// that fills it.
    private static func openCorpus(_ arguments: some AppArguments, logger: Logger) async throws -> (source: CorpusSource, tweeter: DemoTweeter?, live: LiveIndex?) {
        let corpus = try TweetCorpus.open(at: arguments.dataDirectory + "/corpus.sqlite")
        if let settings = arguments.liveIndex {
            let index = try await JetstreamLiveIndex.open(corpus: corpus, settings: settings, logger: logger)
            return (CorpusSource(corpus: corpus), nil, LiveIndex(index: index, status: LiveIndexStatus()))
        }
        if try await corpus.needsDemo() {
            logger.info("The corpus is empty: generating the demo corpus (\(DemoCorpus.defaultCount) tweets)")
            try await DemoCorpus.generate(into: corpus)
        }
        let tweeter = try await DemoCorpus.seed(of: corpus).map { DemoTweeter(corpus: corpus, seed: $0) }
        return (CorpusSource(corpus: corpus), tweeter, nil)
    }
}

enum SiteError: Error, CustomStringConvertible {
    case missingResources

    var description: String {
        switch self {
        case .missingResources: "the web app's static files are missing (SmashtagWeb resources)"
        }
    }
}
