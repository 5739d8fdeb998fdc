/// Builds UTF-8 text byte by byte — URLs, links, JSON lines — with one growing buffer and no Foundation formatting.
package struct ByteWriter: Sendable {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    package mutating func append(bytes other: some Collection<UInt8>) {
        bytes.append(contentsOf: other)
    }

    package mutating func append(decimal number: UInt64) {
        if number >= 10 { append(decimal: number / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: number % 10))
    }

    package mutating func append(decimal number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        append(decimal: UInt64(number.magnitude))
    }

    /// `number` with leading zeros to `width` digits (dates).
    package mutating func append(decimal number: Int, width: Int) {
        var divisor = 1
        for _ in 1..<max(width, 1) { divisor *= 10 }
        while divisor > 1, number < divisor {
            bytes.append(UInt8(ascii: "0"))
            divisor /= 10
        }
        append(decimal: number)
    }

    package mutating func append(base62 value: UInt64, digits: Int) {
        var value = value
        for _ in 0..<digits {
            bytes.append(Self.base62[Int(value % 62)])
            value /= 62
        }
    }

    package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Empty again, keeping the room the buffer has.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    private static let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
}
