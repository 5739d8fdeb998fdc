/// Lets something happen at most once per interval: a log line about progress that comes after every batch.
package struct Throttle: Sendable {
    let interval: Duration
    private var last: ContinuousClock.Instant?

    /// `waitFirst`: the first time is an interval from now; else it is allowed at once.
    package init(every interval: Duration, waitFirst: Bool = false) {
        self.interval = interval
        last = waitFirst ? .now : nil
    }

    /// True, and the interval starts again, when the last time was long enough ago.
    package mutating func allows() -> Bool {
        let now = ContinuousClock.now
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}
