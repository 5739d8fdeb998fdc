import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the two date formats Twitter uses, by hand: they are fixed-width, and formatters cost more than the rest of
/// decoding a tweet.
enum TwitterDate {
    /// `Fri Jul 12 23:40:37 +0000 2019` (v1.1, archives) or `2021-04-08T19:34:16.000Z` (v2, Activity Streams).
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        return bytes.count >= 5 && bytes[4] == UInt8(ascii: "-") ? WireDate.parseISO8601(bytes) : parseClassic(bytes)
    }

    /// Post ids since late 2010 are Snowflakes: milliseconds since Twitter's epoch in the top bits. Used when a
    /// response carries no `created_at` (v2 without `tweet.fields`).
    static func fromSnowflake(_ id: String) -> Date? {
        guard let value = UInt64(id), value >= 1 << 32 else { return nil }
        let milliseconds = (value >> 22) + 1_288_834_974_657
        return Date(millisecondsSince1970: Int64(milliseconds))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func parseClassic(_ bytes: [UInt8]) -> Date? {
        let fields = bytes.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 6, let month = months.firstIndex(of: fields[1]),
            let day = Int(fields[2]), let year = Int(fields[5]),
            let time = WireDate.clock(Array(fields[3].utf8)), let zone = WireDate.zoneOffset(Array(fields[4].utf8))
        else { return nil }
        return WireDate.date(year: year, month: month + 1, day: day, seconds: time - zone)
    }

}
