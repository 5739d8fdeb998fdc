import Foundation
import Hummingbird
import Posts

/// A request's query string, read the way browsers write forms: `application/x-www-form-urlencoded` as the WHATWG URL
/// standard decodes it. `+` is a space and `%2B` a plus, so `#swift OR #travel` typed into the Search field arrives as
/// typed (Hummingbird's `queryParameters` keeps `+` as a plus). Every reader of a page's, a JSON twin's or a feed's
/// parameters goes through this, so no parameter is read another way.
///
/// Where the standard would let broken input through (a `%` without two hex digits after it, bytes that are not
/// UTF-8), this refuses it with one sentence instead: a search for mangled text would look like a search that found
/// nothing.
struct QueryString: Sendable {
    private let pairs: [(name: String, value: String)]

    static let empty = QueryString(pairs: [])

    private init(pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    init(decoding query: Substring) throws(RefusedRequest) {
        var pairs: [(name: String, value: String)] = []
        var offset = 0
        for field in query.split(separator: "&", omittingEmptySubsequences: false) {
            defer { offset += field.utf8.count + 1 }
            guard !field.isEmpty else { continue }
            let equals = field.firstIndex(of: "=")
            let name = try Self.decode(field[..<(equals ?? field.endIndex)], at: offset)
            let value =
                try equals.map { equals throws(RefusedRequest) in
                    try Self.decode(
                        field[field.index(after: equals)...],
                        at: offset + field.utf8.distance(from: field.startIndex, to: equals) + 1)
                } ?? ""
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// The first value given for `name`.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// A term, query or mention as typed (spaces collapsed); nil when it is missing or blank.
    func text(_ name: String) -> String? {
        self[name].map(\.collapsingSpaces).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A time in milliseconds since 1970, as the site's links carry one.
    func time(_ name: String) -> Date? {
        self[name].flatMap { Int64($0) }.map(Date.init(millisecondsSince1970:))
    }

    /// Where the back control goes: only ever a path on this site.
    var back: String? { SiteURL.safeBack(self["back"]) }

    /// The names given, in order, repeated as often as they are.
    var names: [String] { pairs.map(\.name) }

    /// Every value given for `name`, in order (`source=corpus&source=mastodon`).
    func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// One name or value: `+` as a space, then each `%XX` as its byte, the bytes read as UTF-8.
    private static func decode(_ text: Substring, at offset: Int) throws(RefusedRequest) -> String {
        let utf8 = text.utf8
        if !utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = utf8.index(after: index)
                guard high != utf8.endIndex, utf8.index(after: high) != utf8.endIndex,
                    let first = hexValue(utf8[high]), let second = hexValue(utf8[utf8.index(after: high)])
                else {
                    let at = offset + utf8.distance(from: utf8.startIndex, to: index)
                    throw RefusedRequest(
                        .badRequest,
                        """
                        The address has a “%” at character \(at + 1) of its query that is not followed by two \
                        hex digits.
                        """
                    )
                }
                bytes.append(first << 4 | second)
                index = utf8.index(after: high)
            default:
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw RefusedRequest(.badRequest, "The address's query has percent-encoded bytes that are not UTF-8 text.")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
