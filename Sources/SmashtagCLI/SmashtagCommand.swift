import ArgumentParser
import Foundation
import Posts

@main
struct SmashtagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smashtag",
        abstract: "Search posts, read them with their hashtags, users and links, and see what is popular.",
        subcommands: [
            Serve.self, Search.self, ThreadCommand.self, RecentsCommand.self, PopularityCommand.self,
            NetworkCommand.self,
            ExportCommand.self,
            TrendCommand.self,
            TrackCommand.self,
            UntrackCommand.self, TrackingCommand.self, CollectCommand.self, Import.self, IngestCommand.self,
            CorpusCommand.self, Inspect.self, UserCommand.self, TokenCommand.self, AuditCommand.self,
            DoctorCommand.self, VolumeCommand.self, ForgetCommand.self, ConsentCommand.self,
        ]
    )

    /// As ArgumentParser's, but an error a person can act on is printed as the one sentence it is: `smashtag: …`.
    static func main() async {
        // ArgumentParser's `help` shows the top-level help for a word that names no command, and succeeds.
        let words = CommandLine.arguments.dropFirst()
        if words.first == "help", let unknown = unknownCommand(in: words.dropFirst()) {
            StandardError.write("smashtag: there is no command “\(unknown)”; `smashtag --help` lists them.")
            terminate(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            StandardError.write("smashtag: \(failure)")
            terminate(1)
        } catch let error as any ExplainedError {
            StandardError.write("smashtag: \(CommandFailure(explaining: error))")
            terminate(1)
        } catch {
            exit(withError: error)
        }
    }
}

extension SmashtagCommand {
    /// The first word of `help WORD…` that names no command (`help corpus nosuch`: “nosuch”); nil when they all do.
    static func unknownCommand(in words: ArraySlice<String>) -> String? {
        var commands = configuration.subcommands
        for word in words where !word.hasPrefix("-") {
            guard let command = commands.first(where: { $0._commandName == word }) else { return word }
            commands = command.configuration.subcommands
        }
        return nil
    }
}

/// Ends the process: outside the command, whose own `exit(withError:)` would hide the C library's `exit`.
private func terminate(_ status: Int32) -> Never {
    exit(status)
}
