import Foundation
import StubMastodon
import Testing

/// `smashtag doctor` as a newcomer runs it: one line per check, the fix in the line of one that fails, exit 0 only
/// when all hold.
@Suite struct DoctorCommandTests {
    @Test func everyCheckHoldsWithAReachableSourceAndExitsZero() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubMastodon.run { mastodon, port in
            mastodon.serve((1...3).map { StubMastodon.Status(id: $0, tags: ["smashtag"]) })
            let run = try await SmashtagRun.run(
                ["doctor", "--data-dir", directory],
                environment: ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:\(port)"])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let lines = run.stdout.split(separator: "\n")
            #expect(lines.allSatisfy { $0.hasPrefix("ok ") }, "\(run.stdout)")
            for subject in ["Data directory:", "Disk space:", "Database: SQLite", "Corpus:", "Mastodon (", "Clock:"] {
                #expect(lines.contains { $0.contains(subject) }, "\(subject) in \(run.stdout)")
            }
        }
    }

    @Test func anUnreachableSourceFailsInItsOwnLineAndTheExitStatusSaysSo() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(
            ["doctor", "--data-dir", directory], environment: ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:9"])
        #expect(run.status == 1)
        let failed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(failed.contains { $0.contains("Mastodon (127.0.0.1:9)") && $0.contains("refused") }, "\(run.stdout)")
        #expect(run.stdout.contains("ok   Database: SQLite"))
    }

    @Test func anUnreachableDatabaseIsOneLineNamingIt() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(
            ["doctor", "--data-dir", directory, "--database", "postgresql://nobody@127.0.0.1:9/none"])
        #expect(run.status == 1)
        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL Database") }
        #expect(line?.contains("127.0.0.1:9") == true, "\(run.stdout)\(run.stderr)")
    }
}
