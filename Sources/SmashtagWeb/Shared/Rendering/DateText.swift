import Foundation
import WireJSON

/// "now", "5m", "3h", "2d", then the day ("Dec 3"): as timelines show it.
enum RelativeDate {
    static func format(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        case ..<(7 * 86_400): return "\(seconds / 86_400)d"
        default: return UTCTime(date).monthDay
        }
    }
}

/// A moment's calendar fields in UTC, computed from the seconds since 1970 (Hinnant's civil-from-days): a Search
/// page formats two dates per row, and Foundation's formatters cost more than the rest of the row.
struct UTCTime: Equatable {
    let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 for Sunday.
    let weekday: Int

    init(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, time) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        (hour, minute, second) = (time / 3600, time % 3600 / 60, time % 60)
        weekday = ((dayNumber + 4) % 7 + 7) % 7
        (year, month, day) = WireDate.civil(days: Int64(dayNumber))
    }

    /// `2024-12-03T15:46:15Z`, as `Date.ISO8601FormatStyle` writes it.
    var iso8601: String { iso8601(seconds: true) }

    /// `2024-12-03T15:46Z`: to the minute, the seconds cut (a valid HTML date and time).
    var iso8601ToTheMinute: String { iso8601(seconds: false) }

    /// Every row of a page says its time: written straight into the string's bytes.
    private func iso8601(seconds: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        Self.append(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.append(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.append(hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.append(minute, width: 2, to: &bytes)
        if seconds {
            bytes.append(UInt8(ascii: ":"))
            Self.append(second, width: 2, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `Tue, 03 Dec 2024 15:46:15 GMT`: RFC 822 as RSS dates it, and as HTTP dates `Last-Modified`.
    var rfc822: String {
        var bytes = Array((Self.weekdays[weekday] + ", ").utf8)
        Self.append(day, width: 2, to: &bytes)
        bytes.append(contentsOf: " \(Self.months[month - 1]) ".utf8)
        Self.append(year, width: 4, to: &bytes)
        for (value, separator) in [(hour, " "), (minute, ":"), (second, ":")] as [(Int, Unicode.Scalar)] {
            bytes.append(UInt8(separator.value))
            Self.append(value, width: 2, to: &bytes)
        }
        bytes.append(contentsOf: " GMT".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The moment an HTTP date (`Tue, 03 Dec 2024 15:46:15 GMT`, as `rfc822` writes it) names; nil for another form.
    static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 })
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        // In range before any arithmetic: a header is anyone's text, and an overflow would stop the server.
        guard clock.count == 3, (1...9999).contains(year), (1...31).contains(day), (0..<24).contains(clock[0]),
            (0..<60).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Days since 1970 of a date in the proleptic Gregorian calendar (Hinnant's days-from-civil).
    private static func days(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `Dec 3`.
    var monthDay: String {
        Self.months[month - 1] + " " + String(day)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `value` in decimal, zero-padded to `width` digits (more if it needs them).
    private static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        guard value >= 0 else {  // no date Smashtag shows: as `String` spells it
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        // The digits last first, padded, then turned around.
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        while bytes.count - start < width { bytes.append(UInt8(ascii: "0")) }
        bytes[start...].reverse()
    }
}
