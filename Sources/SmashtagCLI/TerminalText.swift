#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text that came from posts, files or a network, made safe to show on a terminal: a terminal obeys control
/// characters (ECMA-48's C0 and C1: escape sequences that clear the screen, recolour, retitle the window, BEL, a CR
/// that writes over the line) and reorders text at the Unicode bidirectional embeddings, overrides and isolates, so a
/// crafted post could command the terminal or hide what is on a line. Each such character is shown as a visible
/// escape, `\u{1B}`, instead. JSON output is left exact: it is for programs, and JSON escapes C0 itself.
enum TerminalText {
    /// One line: newlines and tabs are escaped too, so a value cannot start a line that looks like another row.
    static func line(_ text: some StringProtocol) -> String {
        escaped(text, keepingNewlines: false)
    }

    /// Several lines (a post's text, a message): LF and CRLF stay line breaks, tabs stay tabs.
    static func lines(_ text: some StringProtocol) -> String {
        escaped(text, keepingNewlines: true)
    }

    private static func escaped(_ text: some StringProtocol, keepingNewlines: Bool) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains(where: isUnsafe) else { return String(text) }
        var shown = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if keepingNewlines, scalar == "\r", next != scalars.endIndex, scalars[next] == "\n" {
                // CRLF is a line break as LF is; only a lone CR moves back over the line.
            } else if keepingNewlines, scalar == "\n" || scalar == "\t" {
                shown.append(scalar)
            } else if isUnsafe(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
            index = next
        }
        return String(shown)
    }

    /// C0 (tab and newline included: a caller that keeps them says so), DEL, C1, and the bidirectional formatting
    /// characters that take effect beyond themselves: embeddings and overrides (U+202A–U+202E), isolates
    /// (U+2066–U+2069).
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

/// What goes to stdout in a data format (CSV, GEXF): exact when a program reads it, through `TerminalText.lines` when
/// a person's terminal shows it.
enum StandardOutput {
    static let isTerminal = isatty(STDOUT_FILENO) == 1

    static func data(_ text: String) -> String {
        isTerminal ? TerminalText.lines(text) : text
    }
}
