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
        let (days, millisecondOfDay) = floorDivision(time.value, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
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

    /// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to year, month, day.
    private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
