import AppStore
import ArgumentParser
import DemoCorpus
import Foundation
import Posts
import SmashtagApp
import Synchronization

/// Removing posts against counting them (issue 51: removing deleted posts takes at most twice the time of bringing
/// them in), with another term's table read every 10 ms meanwhile; and the removal the kill test interrupts.
struct BenchRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Count N generated posts under a term in pages of 100, then remove them all, and report both times."
    )

    @Option(help: "The search term.")
    var term = "removal test"

    @Option(help: "Posts counted, then removed.")
    var posts = 100_000

    @Option(help: "Posts removed in one transaction (all of them: one transaction, for the kill test).")
    var batch = 2_000

    @Flag(help: "Only remove: the posts were counted by an earlier run.")
    var removeOnly = false

    @OptionGroup var options: BenchOptions

    func run() async throws {
        var generator = DemoGenerator(seed: 8, count: posts, end: Date(timeIntervalSince1970: 1_790_000_000))
        let all = generator.next(posts)
        try await options.withStore { database in
            let counting = removeOnly ? nil : try await count(all, database)
            _ = try await SearchSessions(database: database).fetch(
                "other term", from: SourceSet(only: FixedPosts(posts: Array(all.prefix(100)))), at: .newest,
                count: 100)
            print("removing", terminator: "\n")
            fflush(nil)
            let (removing, reads) = try await remove(all.map(\.key), database)
            let ratio = counting.map { String(format: " (%.2f× the counting)", removing.seconds / $0.seconds) } ?? ""
            let counted = counting.map { "counted \(posts) posts in pages of 100 in \(Self.seconds($0)); " } ?? ""
            print(
                counted + "removed them in batches of \(batch) in \(Self.seconds(removing))\(ratio); another term's "
                    + "table read every 10 ms meanwhile (\(reads.count) times): "
                    + "p50 \(Self.milliseconds(reads.percentile(0.5))), "
                    + "p99 \(Self.milliseconds(reads.percentile(0.99)))"
            )
        }
    }

    private static func seconds(_ duration: Duration) -> String { String(format: "%.2fs", duration.seconds) }
    private static func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value) }

    private func count(_ posts: [Post], _ database: AppDatabase) async throws -> Duration {
        let sessions = SearchSessions(database: database)
        return try await ContinuousClock().measure {
            for start in stride(from: 0, to: posts.count, by: 100) {
                let page = Array(posts[start..<min(start + 100, posts.count)])
                _ = try await sessions.fetch(
                    term, from: SourceSet(only: FixedPosts(posts: page)), at: .newest, count: page.count)
            }
        }
    }

    /// The removal's time, and the other term's table read over and over while it runs.
    private func remove(_ keys: [PostKey], _ database: AppDatabase) async throws -> (Duration, Latencies) {
        let done = ManagedAtomicFlag()
        async let reads: Latencies = {
            var latencies = Latencies()
            // Paced, as pages that refresh are, rather than a loop that would take a core from the removal.
            while !done.isSet {
                try await latencies.measure { _ = try await Popularity(database: database).table(for: "other term") }
                try await Task.sleep(for: .milliseconds(10))
            }
            return latencies
        }()
        let elapsed = try await ContinuousClock().measure {
            _ = try await database.removePosts(keys, inTransactionsOf: batch)
        }
        done.set()
        return (elapsed, try await reads)
    }
}

/// A flag one task sets and another reads.
private final class ManagedAtomicFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
