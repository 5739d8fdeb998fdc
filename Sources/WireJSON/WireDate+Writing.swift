#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension WireDate {
    /// `2024-05-01T10:00:00Z`, or with the fraction the time has, to the microsecond (`…00.123Z`): what the JSON
    /// Smashtag gives out writes for whole seconds, without losing a network's milliseconds or microseconds.
    /// Written by hand, as they are read: a formatter per post would cost more than the rest of the line.
    package static func iso8601(_ date: Date) -> String {
        iso8601Text(micros: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Whole seconds, rounded down, as `JSONEncoder`'s `.iso8601` writes them (`PublicJSON`).
    package static func iso8601WholeSeconds(_ date: Date) -> String {
        iso8601Text(micros: Int64(date.timeIntervalSince1970.rounded(.down)) * 1_000_000)
    }

    private static func iso8601Text(micros: Int64) -> String {
        let (wholeSeconds, micro) = floorDivide(micros, 1_000_000)
        let (days, secondOfDay) = floorDivide(wholeSeconds, 86_400)
        let (year, month, day) = civil(days: days)
        var text = ByteWriter(capacity: 27)
        text.append(decimal: year, width: 4)
        text.append("-")
        text.append(decimal: month, width: 2)
        text.append("-")
        text.append(decimal: day, width: 2)
        text.append("T")
        text.append(decimal: Int(secondOfDay / 3600), width: 2)
        text.append(":")
        text.append(decimal: Int(secondOfDay % 3600 / 60), width: 2)
        text.append(":")
        text.append(decimal: Int(secondOfDay % 60), width: 2)
        if micro > 0 {
            var digits = Int(micro)
            var width = 6
            while digits % 10 == 0 {
                digits /= 10
                width -= 1
            }
            text.append(".")
            text.append(decimal: digits, width: width)
        }
        text.append("Z")
        return text.string
    }

    /// `value / divisor` rounded down, and what is left (never negative): days and times before 1970 too.
    package static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The civil date of a day since 1970 (Howard Hinnant's `civil_from_days`, the inverse of
    /// `date(year:month:day:)`), so no Calendar is needed.
    package static func civil(days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
