import Foundation
import Testing

/// A process killed in the middle of counting leaves the page counted whole or not at all.
struct KillTests {
    /// What `popularity` gives when nothing was committed: the term is not in Recents (refused, exit 1).
    private static let empty = "not in Recents"

    /// `--data-dir DIRECTORY`, and `--database URL` when the store is PostgreSQL's.
    private static func store(_ directory: String, _ database: String?) -> [String] {
        ["--data-dir", directory] + (database.map { ["--database", $0] } ?? [])
    }

    private func popularity(_ directory: String, _ database: String? = nil) async throws -> String {
        let run = try await SmashtagRun.run(
            ["popularity", "kill test", "--format", "json"] + Self.store(directory, database))
        guard run.status == 0 else {
            #expect(run.stderr.contains("“kill test” is not in Recents"), "\(run.stderr)")
            return Self.empty
        }
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every co-mention of the term, then who replies to and reposts whom, as JSON; nil when the term is not in
    /// Recents (nothing was committed).
    private func network(_ directory: String, _ database: String? = nil) async throws -> String? {
        var networks: [String] = []
        for kind in ["mentions", "replies", "reposts"] {
            let run = try await SmashtagRun.run(
                ["network", "kill test", "--kind", kind, "--top", "500", "--format", "json"]
                    + Self.store(directory, database))
            guard run.status == 0 else {
                #expect(run.stderr.contains("“kill test” is not in Recents"))
                return nil
            }
            networks.append(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return networks.joined(separator: "\n")
    }

    /// Starts counting a large page, waits until the transaction is about to begin, then kills the process,
    /// waiting on a thread of its own.
    private func countAndKill(in directory: String, _ database: String? = nil, after delay: Duration) async throws {
        try await benchAndKill(["count-page"] + Self.store(directory, database), once: "counting\n", after: delay)
    }

    /// Runs a benchmark command, waits until it prints `marker`, then kills it `delay` later.
    private func benchAndKill(_ arguments: [String], once marker: String, after delay: Duration) async throws {
        try await SmashtagRun.offThePool {
            let process = try ChildProcess(SmashtagRun.bench, arguments, output: .pipe)
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains(marker) {
                let chunk = process.output?.availableData ?? Data()
                if chunk.isEmpty { break }
                seen += chunk
            }
            Thread.sleep(
                forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    @Test func aPageIsCountedWholeOrNotAtAll() async throws {
        let reference = try SmashtagRun.temporaryDirectory()
        let completed = try await SmashtagRun.run(
            executable: SmashtagRun.bench, ["count-page", "--data-dir", reference])
        #expect(completed.status == 0, "\(completed.stderr)")
        let whole = try await popularity(reference)
        #expect(whole != Self.empty && whole.contains("\"count\":"))
        let wholeNetwork = try #require(try await network(reference))
        #expect(wholeNetwork.contains("\"weight\":"))
        #expect(
            wholeNetwork.split(separator: "\n").allSatisfy { $0.contains("\"weight\":") },
            "the generated posts reply and repost: every network has edges")
        var outcomes: [String] = []
        for delay in [Duration.milliseconds(10), .milliseconds(150), .milliseconds(400), .milliseconds(900)] {
            let directory = try SmashtagRun.temporaryDirectory()
            try await countAndKill(in: directory, after: delay)
            let table = try await popularity(directory)
            #expect(table == whole || table == Self.empty, "a partial count after \(delay)")
            let pairs = try await network(directory)
            #expect(
                pairs == (table == whole ? wholeNetwork : nil),
                "pairs counted with the counts, or not at all")
            outcomes.append(table == whole ? "whole" : "none")
            let again = try await SmashtagRun.run(
                executable: SmashtagRun.bench, ["count-page", "--data-dir", directory])
            let after = try await popularity(directory)
            #expect(try await network(directory) == wholeNetwork)
            #expect(
                again.status == 0 && after == whole,
                "the database works after the kill, and counting again adds nothing twice")
        }
        print("kill outcomes: \(outcomes)")
    }

    /// The same on PostgreSQL: a page counted by one statement, killed from outside at several moments, is there
    /// whole with its interactions or not at all, and counting it again then adds nothing twice.
    @Test(.enabled(if: PostgresCluster.url != nil, "PostgreSQL for the tests"))
    func aPageCountedOnPostgreSQLIsWholeOrNotAtAll() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let reference = try await PostgresCluster.newDatabase()
        let completed = try await SmashtagRun.run(
            executable: SmashtagRun.bench, ["count-page"] + Self.store(directory, reference))
        #expect(completed.status == 0, "\(completed.stderr)")
        let whole = try await popularity(directory, reference)
        let wholeNetwork = try #require(try await network(directory, reference))
        #expect(wholeNetwork.split(separator: "\n").allSatisfy { $0.contains("\"weight\":") })
        var outcomes: [String] = []
        for delay in [Duration.milliseconds(10), .milliseconds(300), .milliseconds(900)] {
            let database = try await PostgresCluster.newDatabase()
            try await countAndKill(in: directory, database, after: delay)
            let table = try await popularity(directory, database)
            #expect(table == whole || table == Self.empty, "a partial count after \(delay)")
            #expect(try await network(directory, database) == (table == whole ? wholeNetwork : nil))
            outcomes.append(table == whole ? "whole" : "none")
            let again = try await SmashtagRun.run(
                executable: SmashtagRun.bench, ["count-page"] + Self.store(directory, database))
            let after = try await popularity(directory, database)
            #expect(again.status == 0 && after == whole, "\(again.stderr)")
            #expect(try await network(directory, database) == wholeNetwork, "interactions once")
        }
        print("PostgreSQL kill outcomes: \(outcomes)")
    }

    /// Removing the page's 30,000 posts in one transaction (`smashtag-bench remove`, the same generated posts),
    /// killed at several moments: the counts are the whole page's or none, and removing again then leaves exactly
    /// what an uninterrupted removal leaves.
    @Test func aRemovalKilledLeavesThePostsCountedOrNot() async throws {
        let remove = { (directory: String) in
            [
                "remove", "--term", "kill test", "--posts", "30000", "--batch", "30000", "--remove-only", "--data-dir",
                directory,
            ]
        }
        let reference = try SmashtagRun.temporaryDirectory()
        _ = try await SmashtagRun.run(executable: SmashtagRun.bench, ["count-page", "--data-dir", reference])
        let whole = try await popularity(reference)
        let removed = try await SmashtagRun.run(executable: SmashtagRun.bench, remove(reference))
        #expect(removed.status == 0, "\(removed.stderr)")
        let none = try await popularity(reference)
        let noneNetwork = try await network(reference)
        #expect(none != whole && !none.contains("\"count\":"), "\(none)")
        var outcomes: [String] = []
        for delay in [Duration.milliseconds(50), .milliseconds(300), .milliseconds(800)] {
            let directory = try SmashtagRun.temporaryDirectory()
            _ = try await SmashtagRun.run(executable: SmashtagRun.bench, ["count-page", "--data-dir", directory])
            try await benchAndKill(remove(directory), once: "removing\n", after: delay)
            let table = try await popularity(directory)
            #expect(table == whole || table == none, "a partial removal after \(delay)")
            outcomes.append(table == whole ? "counted" : "removed")
            _ = try await SmashtagRun.run(executable: SmashtagRun.bench, remove(directory))
            #expect(try await popularity(directory) == none, "removed again: down exactly once")
            #expect(try await network(directory) == noneNetwork)
        }
        print("removal kill outcomes: \(outcomes)")
    }

    /// An import killed with SIGKILL keeps every batch it committed; run again, it stores the rest, each post once.
    @Test func anImportKilledMidwayFinishesWhenRunAgain() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let file = directory + "/posts.jsonl"
        let generated = try await SmashtagRun.run([
            "corpus", "generate", "--tweets", "40000", "--seed", "3", "--end", "2026-01-01T00:00:00Z", "--out", file,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let killedEarly = try await SmashtagRun.offThePool {
            let process = try ChildProcess(SmashtagRun.executable, ["import", file, "--data-dir", directory])
            // Until some batches are committed (the WAL holds them), bounded by a minute.
            let deadline = Date.now.addingTimeInterval(60)
            while process.isRunning, Self.bytes(of: directory + "/corpus.sqlite-wal") < 2 << 20, Date.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
            let wasRunning = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return wasRunning
        }
        let again = try await SmashtagRun.run(["import", file, "--data-dir", directory])
        #expect(again.status == 0, "\(again.stderr)")
        let counts = try #require(Self.importCounts(again.stdout), "\(again.stdout)")
        #expect(counts.imported + counts.duplicates == 40000)
        #expect(!killedEarly || counts.duplicates > 0, "what was committed before the kill is kept")
        let third = try await SmashtagRun.run(["import", file, "--data-dir", directory])
        #expect(third.stdout.contains("Imported 0 posts, 40,000 duplicates, 0 skipped"), "\(third.stdout)")
    }

    private static func bytes(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// “Imported 1,234 posts, 5,678 duplicates, …” as numbers.
    private static func importCounts(_ summary: String) -> (imported: Int, duplicates: Int)? {
        let numbers = summary.split(whereSeparator: { !$0.isNumber && $0 != "," })
            .filter { $0.contains(where: \.isNumber) }
            .map { Int($0.replacingOccurrences(of: ",", with: "")) }
        guard numbers.count >= 2, let imported = numbers[0], let duplicates = numbers[1] else { return nil }
        return (imported, duplicates)
    }
}
