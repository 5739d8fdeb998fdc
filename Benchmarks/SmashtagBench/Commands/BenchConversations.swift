import AppStore
import ArgumentParser
import Foundation
import Posts

/// The conversation network of a term at a large number of interactions (docs/PERFORMANCE.md, issue 52): who replies
/// to whom, all time and in windows, at 30, 50 and 100 people, on SQLite or PostgreSQL.
struct BenchConversations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conversations", abstract: "Conversation network latency at many interactions.")

    @Option(help: "Replies the benchmark term holds.")
    var interactions = 10_000_000

    @Option(help: "People among whom they are.")
    var users = 100_000

    @Option(help: "Runs of each query of all time.")
    var runs = 300

    @Option(name: .customLong("window-runs"), help: "Runs of each query of a window (they read every hour of it).")
    var windowRuns = 30

    @OptionGroup var options: BenchOptions

    func run() async throws {
        if try options.postgres != nil {
            try await options.withStore { database in try await measure(database, onPostgres: true) }
        } else {
            try await measure(try await options.freshStore("bench-conversations.sqlite"), onPostgres: false)
        }
    }

    private func measure(_ database: AppDatabase, onPostgres: Bool) async throws {
        let fill = try await ContinuousClock().measure {
            if onPostgres {
                try await database.fillPostgresConversations(interactions: interactions, users: users)
            } else {
                try await database.fillSQLiteConversations(interactions: interactions, users: users)
            }
        }
        print(
            "fill “\(onPostgres ? "PostgreSQL" : "SQLite")” interactions=\(interactions) users=\(users) "
                + "seconds=\(String(format: "%.1f", fill.seconds))")
        let popularity = Popularity(database: database)
        let asked: [(TimeWindow, Int)] = [(.all, 30), (.all, 50), (.all, 100), (.month, 50), (.week, 50)]
        for (window, top) in asked {
            var (nodes, edges) = (0, 0)
            var times: [Duration] = []
            for _ in 0..<(window == .all ? runs : windowRuns) {
                let started = ContinuousClock.now
                let network = try await popularity.network(
                    for: ConversationFill.term, NetworkOptions(kind: .replies, window: window, top: top))
                times.append(ContinuousClock.now - started)
                (nodes, edges) = (network?.nodes.count ?? 0, network?.edges.count ?? 0)
            }
            times.sort()
            let (p50, p99) = (times[times.count / 2].seconds * 1000, times[times.count * 99 / 100].seconds * 1000)
            print(
                "network “replies top \(top) \(window)” nodes=\(nodes) edges=\(edges) "
                    + String(format: "p50ms=%.2f p99ms=%.2f", p50, p99))
        }
    }
}
