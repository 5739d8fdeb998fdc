/// Whether bytes are UTF-8 as Unicode defines it: exactly the bytes `String(decoding:as:)` keeps unchanged (no
/// overlong forms, no surrogates, nothing past U+10FFFF, no sequence cut short).
enum UTF8Check {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time: most text is.
            if index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length = sequenceLength(lead)
            guard length > 0, index + length <= count, secondByteFits(lead, base[index + 1]) else { return false }
            for next in index + 2..<index + length where base[next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// 2, 3 or 4 for a lead byte; 0 for a continuation byte or one that never starts a sequence (`C0`, `C1`,
    /// `F5`–`FF`).
    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }

    /// The second byte is a continuation byte, narrowed where the lead allows overlong forms (`E0`, `F0`),
    /// surrogates (`ED`) or code points past U+10FFFF (`F4`).
    private static func secondByteFits(_ lead: UInt8, _ second: UInt8) -> Bool {
        switch lead {
        case 0xE0: (0xA0...0xBF).contains(second)
        case 0xED: (0x80...0x9F).contains(second)
        case 0xF0: (0x90...0xBF).contains(second)
        case 0xF4: (0x80...0x8F).contains(second)
        default: second & 0xC0 == 0x80
        }
    }
}
