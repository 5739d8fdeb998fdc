import Foundation
import Testing

/// Several servers on one PostgreSQL, as real processes (the throwaway cluster `scripts/test` starts): exactly-once
/// counting
/// with eight writers in two processes, one more killed with SIGKILL mid-count, and the errors a person meets.
@Suite(
    .enabled(if: PostgresCluster.url != nil, "no test PostgreSQL (SMASHTAG_TEST_POSTGRES_URL); scripts/test starts one")
)
struct PostgresCommandTests {
    @Test func eightWritersInTwoProcessesCountEveryPostOnceAndAKilledOneLosesNothingCommitted() async throws {
        let database = try await PostgresCluster.newDatabase()
        let directory = try temporaryDirectory()
        let arguments = [
            "count-together", "--term", "Together", "--writers", "4", "--posts", "600", "--page", "60",
            "--data-dir", directory, "--database", database,
        ]
        let killed = try PostgresCluster.start(
            executable: SmashtagRun.bench, arguments + ["--seed", "9", "--pages", "400"])
        async let first = SmashtagRun.run(executable: SmashtagRun.bench, arguments + ["--seed", "1"])
        async let second = SmashtagRun.run(executable: SmashtagRun.bench, arguments + ["--seed", "2"])
        try await Task.sleep(for: .milliseconds(700))
        kill(killed.processIdentifier, SIGKILL)
        let runs = try await [first, second]
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")

        let counts = try await PostgresCluster.psql(
            database,
            """
            SELECT m.key || ' ' || c.count FROM recent r JOIN mention_count c ON c.term_id = r.id JOIN mention m ON \
            m.id = c.mention_id
            WHERE r.key = 'together' ORDER BY m.key
            """)
        let recount = try await PostgresCluster.psql(
            database,
            """
            SELECT key || ' ' || count(*) FROM (
                SELECT DISTINCT p.id, lower(m ->> 'keyword') AS key
                FROM recent r JOIN counted_post c ON c.term_id = r.id JOIN post p ON p.id = c.post_ref,
                    json_array_elements(p.json::json -> 'mentions') m
                WHERE r.key = 'together') AS named
            GROUP BY key ORDER BY key
            """)
        #expect(counts == recount)
        #expect(counts == Self.expected(posts: 600))
        let table = try await SmashtagRun.run([
            "popularity", "together", "--format", "csv", "--data-dir", directory, "--database", database,
        ])
        #expect(
            table.stdout.contains("#c3,hashtag,86,") && table.stdout.contains("'@u0,user,120,"), "\(table.stdout)")

        // The co-mentions, counted in the same transactions, equal a recount of every pair of each stored post.
        let pairs = try await PostgresCluster.psql(
            database,
            """
            SELECT line FROM (SELECT a.key || ' ' || b.key || ' ' || p.weight FROM recent r
                JOIN mention_pair p ON p.term_id = r.id AND p.mention_id < p.partner_id
                JOIN mention a ON a.id = p.mention_id JOIN mention b ON b.id = p.partner_id
            WHERE r.key = 'together' AND a.key < b.key
            UNION ALL SELECT b.key || ' ' || a.key || ' ' || p.weight FROM recent r
                JOIN mention_pair p ON p.term_id = r.id AND p.mention_id < p.partner_id
                JOIN mention a ON a.id = p.mention_id JOIN mention b ON b.id = p.partner_id
            WHERE r.key = 'together' AND a.key > b.key) AS t (line)
            ORDER BY line COLLATE "C"
            """)
        let pairRecount = try await PostgresCluster.psql(
            database,
            """
            WITH named AS (
                SELECT DISTINCT p.id, lower(m ->> 'keyword') AS key
                FROM recent r JOIN counted_post c ON c.term_id = r.id JOIN post p ON p.id = c.post_ref,
                    json_array_elements(p.json::json -> 'mentions') m
                WHERE r.key = 'together' AND m ->> 'kind' <> 'url')
            SELECT line FROM (SELECT a.key || ' ' || b.key || ' ' || count(*) FROM named a JOIN named b
                ON a.id = b.id AND a.key < b.key GROUP BY a.key, b.key) AS t (line)
            ORDER BY line COLLATE "C"
            """)
        #expect(!pairs.isEmpty && pairs == pairRecount)
        let hourly = try await PostgresCluster.psql(
            database,
            """
            SELECT (SELECT sum(weight) FROM mention_pair_hour h JOIN recent r ON r.id = h.term_id \
            WHERE r.key = 'together') = (SELECT sum(weight) FROM mention_pair p JOIN recent r ON r.id = p.term_id \
            WHERE r.key = 'together')
            """)
        #expect(hourly == ["t"], "the hours add up to the totals")
    }

    @Test func anUnreachableOrMistypedDatabaseIsOneSentenceAndAFailure() async throws {
        let directory = try temporaryDirectory()
        let refused = try await SmashtagRun.run([
            "recents", "--data-dir", directory, "--database", "postgresql://smashtag@127.0.0.1:1/smashtag",
        ])
        #expect(refused.status != 0)
        #expect(
            refused.stderr
                == "smashtag: Cannot reach the PostgreSQL database “smashtag” at 127.0.0.1:1: connection refused.\n")
        let serve = try await SmashtagRun.run(
            ["serve", "--port", "0", "--data-dir", directory],
            environment: ["SMASHTAG_DATABASE_URL": "postgresql://smashtag@127.0.0.1:1/smashtag"])
        #expect(serve.status != 0 && serve.stderr.contains("connection refused"), "\(serve.stderr)")
        let mistyped = try await SmashtagRun.run([
            "popularity", "x", "--data-dir", directory, "--database", "mysql://x@y/z",
        ])
        #expect(mistyped.status != 0 && mistyped.stderr.contains("The database must be a PostgreSQL address"))
    }

    /// What each mention of `Together`'s posts counts: the posts naming it, each once.
    private static func expected(posts: Int) -> [String] {
        var counts: [String: Int] = [:]
        for number in 1...posts {
            for key in Set(["#c\(number % 7)", "#d\(number % 11)", "@u\(number % 5)"]) { counts[key, default: 0] += 1 }
        }
        return counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-pg-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// The test cluster, through `psql`.
enum PostgresCluster {
    static let url = ProcessInfo.processInfo.environment["SMASHTAG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// A new, empty database; its URL.
    static func newDatabase() async throws -> String {
        let name = "smashtag_cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        _ = try await psql(url!, "CREATE DATABASE \(name)")
        var components = URLComponents(string: url!)!
        components.path = "/" + name
        return components.string!
    }

    /// The rows a query prints, one line each.
    static func psql(_ database: String, _ sql: String) async throws -> [String] {
        try await SmashtagRun.offThePool {
            let process = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/psql"), [database, "-X", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
                output: .pipe)
            let data = process.output?.readDataToEndOfFile() ?? Data()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    /// A `smashtag` process left running, its output discarded.
    static func start(executable: URL = SmashtagRun.executable, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable, arguments)
    }
}
