import AppStore
import ArgumentParser
import Corpus
import DemoCorpus
import Foundation
import Posts
import SmashtagApp
import Twitter

/// The time to count one page of many tweets: a single transaction, which the kill test interrupts.
struct BenchCountPage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count-page",
        abstract: "Count one page of N generated tweets under a term, in one transaction, and report the time."
    )

    @Option(help: "The search term.")
    var term = "kill test"

    @Option(help: "Tweets in the page.")
    var tweets = 30_000

    @OptionGroup var options: BenchOptions

    /// On the data directory's SQLite store, or with `--database` on PostgreSQL.
    func run() async throws {
        if try options.postgres != nil {
            try await options.withStore { database in try await count(in: database) }
        } else {
            try await count(in: try await AppDatabase.open(at: options.directory.appDatabase))
        }
    }

    private func count(in database: AppDatabase) async throws {
        var generator = DemoGenerator(seed: 8, count: tweets, end: Date(timeIntervalSince1970: 1_790_000_000))
        let page = generator.next(tweets)
        print("counting", terminator: "\n")
        fflush(nil)
        let elapsed = try await ContinuousClock().measure {
            _ = try await SearchSessions(database: database).fetch(
                term, from: SourceSet(only: FixedPosts(posts: page)), at: .newest, count: SearchRequest.maximumCount)
        }
        print("counted \(tweets) tweets in \(String(format: "%.2f", elapsed.seconds))s")
    }
}
