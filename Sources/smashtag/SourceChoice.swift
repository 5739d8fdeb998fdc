import Corpus
import Foundation
import Posts
import Twitter

/// Which source a command searches: `--source`, else the X API when a token is configured, else the corpus.
struct SourceChoice {
    let name: SourceName
    private let configuration: XAPIConfiguration?

    /// The X API's configuration when it is the chosen source (nil for the corpus, or when no token is configured).
    var xAPI: XAPIConfiguration? { name == .x ? configuration : nil }

    init(_ options: CommonOptions, directory: DataDirectory) {
        configuration = XAPIConfiguration.configured(environment: ProcessInfo.processInfo.environment, dataDirectory: directory.path)
        name = options.source ?? (configuration == nil ? .corpus : .x)
    }

    func open(in directory: DataDirectory) async throws -> any PostSource {
        switch name {
        case .corpus:
            let corpus = try TweetCorpus.open(at: directory.corpus)
            try await DemoSetup.ensureDemo(in: corpus)
            return CorpusSource(corpus: corpus)
        case .x:
            guard let configuration else {
                throw CommandFailure("no X API bearer token is configured: set SMASHTAG_X_BEARER_TOKEN, or write it to \(directory.path)/\(XAPIConfiguration.tokenFileName).")
            }
            return XAPIClient(configuration: configuration)
        }
    }
}
