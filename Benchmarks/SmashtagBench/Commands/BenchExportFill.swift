import AppStore
import ArgumentParser
import DemoCorpus
import Foundation
import Posts
import SmashtagApp

/// `smashtag-bench export-fill`: counts generated posts under one term through the store's own counting (every
/// mention, hour and pair), for `smashtag export` and the dataset download to be measured on
/// (`Benchmarks/datasets/run.sh`).
struct BenchExportFill: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-fill",
        abstract: "Count N generated posts under a term, as searches would, for measuring `smashtag export`."
    )

    @Option(help: "The search term the posts are counted under.")
    var term = "export bench"

    @Option(help: "Posts to count.")
    var posts = 1_000_000

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await options.withStore { database in
            var generator = DemoGenerator(seed: 37, count: posts, end: Date(timeIntervalSince1970: 1_790_000_000))
            let sessions = SearchSessions(database: database)
            let clock = ContinuousClock()
            let started = clock.now
            var counted = 0
            while counted < posts {
                // A page as a search fetches it: the most a search records at once.
                let batch = generator.next(min(SearchRequest.maximumCount, posts - counted))
                guard !batch.isEmpty else { break }
                _ = try await sessions.fetch(
                    term, from: SourceSet(only: FixedPosts(posts: batch)), at: .newest,
                    count: SearchRequest.maximumCount)
                counted += batch.count
                if counted % 100_000 == 0 { note("counted \(counted) posts") }
            }
            report(Filled(term: term, posts: counted, seconds: (clock.now - started).seconds))
        }
    }

    private struct Filled: Encodable {
        let term: String
        let posts: Int
        let seconds: Double
    }
}
