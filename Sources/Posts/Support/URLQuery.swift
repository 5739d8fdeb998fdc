/// Query-string values, built by hand.
package enum URLQuery {
    /// Everything but RFC 3986's unreserved characters, byte by byte of the UTF-8: `#`, `@`, `+`, spaces, quotes and
    /// non-ASCII all arrive as typed (Foundation's URLComponents would leave `+` as is, which servers read as a space).
    package static func encode(_ text: String) -> String {
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
