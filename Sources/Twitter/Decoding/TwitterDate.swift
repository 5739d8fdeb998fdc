#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Posts

/// Reads the two date formats Twitter uses, by hand: they are fixed-width, and formatters cost more than the rest of
/// decoding a tweet.
enum TwitterDate {
    /// `Fri Jul 12 23:40:37 +0000 2019` (v1.1, archives) or `2021-04-08T19:34:16.000Z` (v2, Activity Streams).
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        return bytes.count >= 5 && bytes[4] == UInt8(ascii: "-") ? parseISO8601(bytes) : parseClassic(bytes)
    }

    /// Post ids since late 2010 are Snowflakes: milliseconds since Twitter's epoch in the top bits. Used when a
    /// response carries no `created_at` (v2 without `tweet.fields`).
    static func fromSnowflake(_ id: String) -> Date? {
        guard let value = UInt64(id), value >= 1 << 32 else { return nil }
        let milliseconds = (value >> 22) + 1_288_834_974_657
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func parseClassic(_ bytes: [UInt8]) -> Date? {
        let fields = bytes.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 6, let month = months.firstIndex(of: fields[1]),
              let day = Int(fields[2]), let year = Int(fields[5]),
              let time = clock(Array(fields[3].utf8)), let zone = zoneOffset(Array(fields[4].utf8))
        else { return nil }
        return date(year: year, month: month + 1, day: day, seconds: time - zone)
    }

    private static func parseISO8601(_ bytes: [UInt8]) -> Date? {
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let time = clock(Array(bytes[11..<19]))
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let digits = bytes[(index + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            fraction = Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
            index += 1 + digits.count
        }
        guard let zone = zoneOffset(Array(bytes[index...])) else { return nil }
        return date(year: year, month: month, day: day, seconds: time - zone).map { $0.addingTimeInterval(fraction) }
    }

    /// `HH:mm:ss` as seconds into the day.
    private static func clock(_ bytes: [UInt8]) -> Int? {
        guard bytes.count == 8, let hours = number(bytes, 0, 2), let minutes = number(bytes, 3, 2),
              let seconds = number(bytes, 6, 2), hours < 24, minutes < 60, seconds <= 60
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// `Z`, `+0000`, `+00:00` as seconds east of UTC.
    private static func zoneOffset(_ bytes: [UInt8]) -> Int? {
        if bytes == [UInt8(ascii: "Z")] { return 0 }
        let digits = bytes.filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 5, let hours = number(digits, 1, 2), let minutes = number(digits, 3, 2) else { return nil }
        let sign = digits[0] == UInt8(ascii: "-") ? -1 : digits[0] == UInt8(ascii: "+") ? 1 : 0
        return sign == 0 ? nil : sign * (hours * 3600 + minutes * 60)
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days from the civil calendar (Howard Hinnant's algorithm), so no Calendar is needed.
    private static func date(year: Int, month: Int, day: Int, seconds: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + seconds))
    }
}
