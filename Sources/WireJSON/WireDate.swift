#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ISO-8601 timestamps as APIs write them (`2021-04-08T19:34:16.000Z`, `+00:00` offsets, any number of fractional
/// digits), read by hand: they are fixed-width, and formatters cost more than the rest of decoding a post.
package enum WireDate {
    package static func parseISO8601(_ text: String) -> Date? {
        parseISO8601(Array(text.utf8))
    }

    package static func parseISO8601(_ bytes: [UInt8]) -> Date? {
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
    package static func clock(_ bytes: [UInt8]) -> Int? {
        guard bytes.count == 8, let hours = number(bytes, 0, 2), let minutes = number(bytes, 3, 2),
            let seconds = number(bytes, 6, 2), hours < 24, minutes < 60, seconds <= 60
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// `Z`, `+0000`, `+00:00` as seconds east of UTC.
    package static func zoneOffset(_ bytes: [UInt8]) -> Int? {
        if bytes == [UInt8(ascii: "Z")] { return 0 }
        let digits = bytes.filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 5, let hours = number(digits, 1, 2), let minutes = number(digits, 3, 2) else {
            return nil
        }
        let sign = digits[0] == UInt8(ascii: "-") ? -1 : digits[0] == UInt8(ascii: "+") ? 1 : 0
        return sign == 0 ? nil : sign * (hours * 3600 + minutes * 60)
    }

    package static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days from the civil calendar (Howard Hinnant's algorithm), so no Calendar is needed.
    package static func date(year: Int, month: Int, day: Int, seconds: Int) -> Date? {
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
