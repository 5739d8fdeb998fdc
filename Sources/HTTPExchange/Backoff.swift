/// Pauses between attempts that keep failing: doubling from `first` up to `most`, and back to `first` once an
/// attempt succeeds.
package struct Backoff: Sendable {
    let first: Duration
    let most: Duration
    /// The pause the next failure waits.
    package private(set) var pause: Duration

    package init(first: Duration, most: Duration) {
        (self.first, self.most, pause) = (first, most, first)
    }

    /// The pause to wait now; the next is twice as long.
    package mutating func next() -> Duration {
        defer { pause = min(pause * 2, most) }
        return pause
    }

    package mutating func reset() { pause = first }

    /// An attempt has failed since the last reset (or the start): an outage that is already known.
    package var hasFailed: Bool { pause > first }
}
