import ArgumentParser

@main
struct SmashtagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smashtag",
        abstract: "Search tweets, read them with their hashtags, users and links, and see what is popular.",
        subcommands: [Inspect.self, Bench.self]
    )
}
