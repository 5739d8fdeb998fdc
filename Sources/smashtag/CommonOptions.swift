import ArgumentParser

/// Where tweets come from.
enum SourceName: String, ExpressibleByArgument, CaseIterable {
    case corpus
    case x
}

/// Options every subcommand accepts (SPEC §5).
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where Smashtag keeps its data (default: $SMASHTAG_HOME, else the XDG data directory).")
    var dataDirectory: String?

    @Option(help: "Where tweets come from: corpus or x (default: x when a token is configured, else corpus).")
    var source: SourceName?
}

/// How a command prints.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
