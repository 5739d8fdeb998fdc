import ArgumentParser

/// Options every subcommand accepts (SPEC §5).
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where Smashtag keeps its data (default: $SMASHTAG_HOME, else the XDG data directory).")
    var dataDirectory: String?

    @Option(help: ArgumentHelp(
        "Where posts come from, as a comma list: corpus, x, mastodon (default: every configured source).",
        valueName: "sources"))
    var source: String?
}

/// How a command prints.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
