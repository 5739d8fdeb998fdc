import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

@main
struct SmashtagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smashtag",
        abstract: "Search tweets, read them with their hashtags, users and links, and see what is popular.",
        subcommands: [Serve.self, Search.self, RecentsCommand.self, PopularityCommand.self, TrendCommand.self, Import.self, IngestCommand.self, CorpusCommand.self, Inspect.self, Bench.self]
    )

    /// As ArgumentParser's, but a `CommandFailure` is printed as the one sentence it is: `smashtag: …`.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            StandardError.write("smashtag: \(failure)")
            Glibc.exit(1)
        } catch {
            exit(withError: error)
        }
    }
}
