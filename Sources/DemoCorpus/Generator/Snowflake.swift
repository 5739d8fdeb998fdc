import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A moment at whole milliseconds since 1970, the resolution of tweet ids and v2 dates.
struct Milliseconds: Sendable {
    let value: Int64

    init(_ value: Int64) {
        self.value = value
    }

    /// Rounded down to the millisecond — except that a date made by `date` gives its own millisecond back, though
    /// multiplying by 1000 may land a hair below it.
    init(_ date: Date) {
        let exact = date.timeIntervalSince1970 * 1000
        let nearest = exact.rounded()
        value = Int64(abs(exact - nearest) < 0.001 ? nearest : exact.rounded(.down))
    }

    /// Built exactly as `TwitterDate` reads `…:ss.SSSZ` — whole seconds, then the fraction added — so a date that
    /// goes out as ISO-8601 comes back `==`, not merely within a rounding error.
    var date: Date {
        let (seconds, millis) = value.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, fraction) = millis < 0 ? (seconds - 1, millis + 1000) : (seconds, millis)
        return Date(timeIntervalSince1970: Double(wholeSeconds)).addingTimeInterval(Double(fraction) / 1000)
    }
}

/// Hands out Snowflake ids (milliseconds since Twitter's epoch above 22 bits of sequence), strictly increasing even
/// when two tweets share a millisecond or the clock steps back.
struct SnowflakeClock: Sendable {
    static let twitterEpoch: Int64 = 1_288_834_974_657
    private var last: UInt64 = 0

    mutating func id(at time: Milliseconds) -> UInt64 {
        let candidate = Self.id(at: time)
        last = candidate > last ? candidate : last + 1
        return last
    }

    static func id(at time: Milliseconds, sequence: UInt64 = 0) -> UInt64 {
        UInt64(max(time.value - twitterEpoch, 0)) << 22 | sequence
    }
}

/// `2024-05-01T12:34:56.789Z`, the v2 date format, written by hand from the civil calendar.
enum ISO8601 {
    static func string(_ time: Milliseconds) -> String {
        let (days, millisecondOfDay) = WireDate.floorDivide(time.value, 86_400_000)
        let (year, month, day) = WireDate.civil(days: days)
        var text = ByteWriter(capacity: 24)
        text.append(decimal: year, width: 4)
        text.append(byte: UInt8(ascii: "-"))
        text.append(decimal: month, width: 2)
        text.append(byte: UInt8(ascii: "-"))
        text.append(decimal: day, width: 2)
        appendClock(Int(millisecondOfDay), to: &text)
        return text.string
    }

    private static func appendClock(_ milliseconds: Int, to text: inout ByteWriter) {
        text.append(byte: UInt8(ascii: "T"))
        text.append(decimal: milliseconds / 3_600_000, width: 2)
        text.append(byte: UInt8(ascii: ":"))
        text.append(decimal: milliseconds / 60_000 % 60, width: 2)
        text.append(byte: UInt8(ascii: ":"))
        text.append(decimal: milliseconds / 1000 % 60, width: 2)
        text.append(byte: UInt8(ascii: "."))
        text.append(decimal: milliseconds % 1000, width: 3)
        text.append(byte: UInt8(ascii: "Z"))
    }

}
