import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When a tracked term is due: every `every` seconds at a phase of its own within the interval (from its key), so
/// terms tracked at the same moment, or due together after a restart, are spread over the interval rather than
/// fetched at once; the same term keeps its phase on every server.
enum Schedule {
    /// The first time after `now` at the term's phase.
    static func next(after now: Date, every: Int, key: String) -> Date {
        let period = Int64(every) * 1000
        let phase = Int64(StableHash.of(key) % UInt64(period))
        let milliseconds = now.millisecondsSince1970
        let start = (milliseconds - phase) / period * period + phase
        return Date(millisecondsSince1970: start + period)
    }
}
