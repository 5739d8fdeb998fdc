import Foundation
import Testing

/// A process killed in the middle of counting leaves the page counted whole or not at all.
struct KillTests {
    private static let empty = #"{"hashtags":[],"term":"kill test","users":[],"window":"all"}"#

    private func popularity(_ directory: String) async throws -> String {
        let run = try await SmashtagRun.run(["popularity", "kill test", "--format", "json", "--data-dir", directory])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every co-mention of the term, as JSON; nil when the term is not in Recents (nothing was committed).
    private func network(_ directory: String) async throws -> String? {
        let run = try await SmashtagRun.run(
            ["network", "kill test", "--top", "500", "--format", "json", "--data-dir", directory])
        guard run.status == 0 else {
            #expect(run.stderr.contains("“kill test” is not in Recents"))
            return nil
        }
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts counting a large page, waits until the transaction is about to begin, then kills the process,
    /// waiting on a thread of its own.
    private func countAndKill(in directory: String, after delay: Duration) async throws {
        try await SmashtagRun.offThePool {
            let process = Process()
            process.executableURL = SmashtagRun.bench
            process.arguments = ["count-page", "--data-dir", directory]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("counting\n") {
                let chunk = output.fileHandleForReading.availableData
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
}
