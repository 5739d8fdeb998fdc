import Posts

/// Timings of repeated runs, reported as percentiles in milliseconds.
struct Latencies {
    private var times: [Duration] = []

    mutating func measure(_ body: () async throws -> Void) async rethrows {
        let started = ContinuousClock.now
        try await body()
        times.append(ContinuousClock.now - started)
    }

    /// Work that does not suspend, timed without a suspension point around it (sub-millisecond work).
    mutating func measureNow(_ body: () throws -> Void) rethrows {
        let started = ContinuousClock.now
        try body()
        times.append(ContinuousClock.now - started)
    }

    /// `p` from 0 to 1 (1: the slowest).
    func percentile(_ p: Double) -> Double {
        let sorted = times.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))].seconds * 1000
    }

    var count: Int { times.count }

    /// The last run's time, in milliseconds.
    var lastMilliseconds: Double? { times.last.map { $0.seconds * 1000 } }

    var meanMilliseconds: Double {
        times.reduce(Duration.zero, +).seconds * 1000 / Double(max(times.count, 1))
    }
}
