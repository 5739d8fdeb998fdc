import Hummingbird

/// A piece of HTML. Its literal text is markup the code wrote; every value interpolated into it is escaped
/// (`& < > " '`), except nested `Markup`, which is already safe. Addresses go through `\(url:)`, which writes only
/// `http(s)` addresses and this site's own paths. There is no other way in: no value reaches a page unescaped.
struct Markup: ExpressibleByStringInterpolation, Sendable {
    fileprivate(set) var bytes: [UInt8]

    static let empty: Markup = ""

    /// The markup as text, for a document that carries HTML as escaped text (an RSS item's description).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    init(stringLiteral literal: String) {
        bytes = Array(literal.utf8)
    }

    init(stringInterpolation: StringInterpolation) {
        bytes = stringInterpolation.bytes
    }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var bytes: [UInt8] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + 32 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            bytes.append(contentsOf: literal.utf8)
        }

        mutating func appendInterpolation(_ text: String) {
            HTMLEscaping.append(text, to: &bytes)
        }

        mutating func appendInterpolation(_ number: Int) {
            bytes.append(contentsOf: String(number).utf8)
        }

        mutating func appendInterpolation(_ markup: Markup) {
            bytes.append(contentsOf: markup.bytes)
        }

        /// An `href` or `src`: written only when it is `http(s)` or a path on this site (else nothing, so a
        /// `javascript:` address can never become a link).
        mutating func appendInterpolation(url: String) {
            HTMLEscaping.append(SafeURL.image(url) ?? "", to: &bytes)
        }
    }
}

/// A page being written: one buffer that every piece is appended to, sent as it is.
struct HTMLWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ markup: Markup) {
        bytes.append(contentsOf: markup.bytes)
    }

    /// Bytes of a document already written through `Markup` (a copy being cleaned of what XML forbids).
    mutating func append(bytes written: some Collection<UInt8>) {
        bytes.append(contentsOf: written)
    }

    var byteBuffer: ByteBuffer { ByteBuffer(bytes: bytes) }
}

/// HTML escaping over UTF-8 bytes: runs without `& < > " '` or a CR are copied whole.
enum HTMLEscaping {
    static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                guard let entity = entity(for: utf8[index]) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(contentsOf: entity)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    private static let ampersand = Array("&amp;".utf8), lessThan = Array("&lt;".utf8), greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8), apostrophe = Array("&#39;".utf8)
    /// An HTML parser turns a raw CR into LF; as a reference it stays the character the text holds, and a page's
    /// live rows (sent as event stream lines, which end at a CR) carry none.
    private static let carriageReturn = Array("&#13;".utf8)

    private static func entity(for byte: UInt8) -> [UInt8]? {
        switch byte {
        case UInt8(ascii: "&"): ampersand
        case UInt8(ascii: "<"): lessThan
        case UInt8(ascii: ">"): greaterThan
        case UInt8(ascii: "\""): quote
        case UInt8(ascii: "'"): apostrophe
        case UInt8(ascii: "\r"): carriageReturn
        default: nil
        }
    }
}
