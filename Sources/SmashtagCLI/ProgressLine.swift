import Posts

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line on a terminal's stderr rewritten in place, at most ten times a second; silent when stderr is not a
/// terminal.
struct ProgressLine {
    private let enabled = isatty(STDERR_FILENO) == 1
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastShown: ContinuousClock.Instant?

    init() {
        started = clock.now
    }

    var elapsed: Duration { clock.now - started }

    /// `text(secondsSoFar)` is only built when the line is redrawn.
    mutating func show(force: Bool = false, _ text: (Double) -> String) {
        guard enabled else { return }
        let now = clock.now
        if !force, let lastShown, now - lastShown < .milliseconds(100) { return }
        lastShown = now
        StandardError.put("\r\u{1B}[K" + text((now - started).seconds))
    }

    /// Clears the line so what follows starts clean.
    func clear() {
        if enabled, lastShown != nil { StandardError.put("\r\u{1B}[K") }
    }
}
