import Testing

@testable import WireJSON

/// The parser's own UTF-8 check says what the standard library's validation says: every sequence of one and two
/// bytes, every lead and second byte of three and four with the bytes after them drawn from the edges of each range,
/// each alone, after eight ASCII bytes (the check's fast stride) and cut short.
struct UTF8CheckTests {
    static let edges: [UInt8] = [
        0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
    ]

    @Test func sequencesOfOneAndTwoBytes() {
        for first in 0...255 {
            expectSame([UInt8(first)])
            for second in 0...255 { expectSame([UInt8(first), UInt8(second)]) }
        }
    }

    @Test func sequencesOfThreeAndFourBytes() {
        for first in 0x80...0xFF {
            for second in 0...255 {
                for third in Self.edges {
                    expectSame([UInt8(first), UInt8(second), third])
                    guard first >= 0xF0 else { continue }
                    for fourth in Self.edges { expectSame([UInt8(first), UInt8(second), third, fourth]) }
                }
            }
        }
    }

    @Test func afterAndBeforeASCII() {
        let ascii = Array("eight ok".utf8)
        let sequences: [[UInt8]] = [
            [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xED, 0xA0], [0xC3],
        ]
        for bytes in sequences {
            expectSame(ascii + bytes)
            expectSame(bytes + ascii)
            expectSame(ascii + bytes + ascii + ascii)
        }
    }

    private func expectSame(_ bytes: [UInt8]) {
        let valid = bytes.withUnsafeBufferPointer { UTF8Check.isValid($0) }
        if valid != (String(validating: bytes, as: UTF8.self) != nil) {
            Issue.record("\(bytes.map { String($0, radix: 16) }): the check says \(valid)")
        }
    }
}
