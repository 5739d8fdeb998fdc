import Logging
import Posts
import SmashtagApp
import Synchronization

/// The local corpus for a command, the demo generated on first use with its progress on the terminal.
enum DemoSetup {
    static func openCorpus(in directory: DataDirectory, at location: StoreLocation) async throws -> LocalCorpus {
        let progress = Mutex(ProgressLine())
        defer { progress.withLock { $0.clear() } }
        let logger = Logger(label: "smashtag")
        let corpus = try await CommandFailure.reporting { try await location.openCorpus(in: directory, logger: logger) }
        return try await LocalCorpus.open(corpus, logger: logger) { stored, count in
            if stored == 0 {
                StandardError.write(
                    "smashtag: the corpus is empty; generating the demo corpus (\(grouped(count)) posts)…")
            }
            progress.withLock { $0.show { _ in "Generating: \(grouped(stored)) of \(grouped(count)) posts" } }
        }
    }
}
