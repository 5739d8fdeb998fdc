import ArgumentParser

/// Options every subcommand accepts (SPEC §5).
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where Smashtag keeps its data (default: $SMASHTAG_HOME, else the XDG data directory).")
    var dataDirectory: String?

    @Option(help: ArgumentHelp(
        "Where posts come from, as a comma list: corpus, x, mastodon, bluesky (default: every configured source).",
        valueName: "sources"))
    var source: String?
}

/// How a command prints.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// How a command that prints a table prints: also as CSV, for spreadsheets.
enum TableFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case csv
}

/// RFC 4180 rows: a field with a comma, a quote or a line break is quoted, its quotes doubled.
enum CSV {
    static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
