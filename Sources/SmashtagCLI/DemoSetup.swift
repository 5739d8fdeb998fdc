import Logging
import Posts
import SmashtagApp

/// The local corpus for a command, the demo generated on first use with its progress on the terminal.
enum DemoSetup {
    static func openCorpus(in directory: DataDirectory) async throws -> LocalCorpus {
        var progress = ProgressLine()
        defer { progress.clear() }
        return try await LocalCorpus.open(in: directory, logger: Logger(label: "smashtag")) { stored, count in
            if stored == 0 {
                StandardError.write(
                    "smashtag: the corpus is empty; generating the demo corpus (\(grouped(count)) posts)…")
            }
            progress.show { _ in "Generating: \(grouped(stored)) of \(grouped(count)) posts" }
        }
    }
}
