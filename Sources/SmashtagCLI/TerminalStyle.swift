import Posts

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ANSI styling, only when writing to a terminal and `NO_COLOR` is unset. What it styles is a value as it came (a
/// post's name, a mention, a source's error): shown through `TerminalText.line` whether styled or not.
struct TerminalStyle {
    let enabled: Bool

    static var standardOutput: TerminalStyle {
        TerminalStyle(enabled: isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil)
    }

    func mention(_ text: String, kind: Mention.Kind) -> String {
        switch kind {
        case .hashtag: wrap(text, "36")
        case .user: wrap(text, "35")
        case .url: wrap(text, "4;34")
        }
    }

    func bold(_ text: String) -> String { wrap(text, "1") }

    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        let shown = TerminalText.line(text)
        return enabled ? "\u{1B}[\(code)m\(shown)\u{1B}[0m" : shown
    }
}

/// One line on stderr. Messages quote what they are about (a file's text, a query, a network's words), so they are
/// shown through `TerminalText.lines`.
enum StandardError {
    static func write(_ line: String) {
        put(TerminalText.lines(line) + "\n")
    }

    /// Text as it is, with no newline (a progress line).
    static func put(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
                _ = Glibc.write(STDERR_FILENO, buffer.baseAddress, buffer.count)
            #elseif canImport(Darwin)
                _ = Darwin.write(STDERR_FILENO, buffer.baseAddress, buffer.count)
            #endif
        }
    }
}
