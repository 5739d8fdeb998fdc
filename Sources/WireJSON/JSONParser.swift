#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A syntax error at a byte offset, with what the parser expected there.
package struct JSONSyntaxError: Error, Sendable {
    package let offset: Int
    package let expected: String
}

/// What the parser had to mend to read a value: the value is kept, and the reader says what was changed.
package struct TextRepairs: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bytes that are not UTF-8, read as U+FFFD.
    package static let invalidUTF8 = TextRepairs(rawValue: 1)
    /// A `\uD800`–`\uDFFF` escape without its other half, read as U+FFFD.
    package static let loneSurrogate = TextRepairs(rawValue: 2)
}

/// A strict RFC 8259 parser over UTF-8 bytes, one value at a time.
///
/// Hand-written rather than `JSONDecoder` because Smashtag detects formats from content (so it needs a tree, not a
/// fixed `Decodable` shape), reports malformed input by line, reads values back to back, and must keep up with
/// orjson on multi-megabyte files.
package struct JSONParser: ~Copyable {
    var offset: Int
    let bytes: UnsafeBufferPointer<UInt8>
    /// Members whose values are checked but not built: the caller never reads them, and building them was most of
    /// the work (v2 `context_annotations` alone is a fifth of a twarc file).
    private let ignoredKeys: JSONKeySet
    /// What was mended so far (callers read it after each value).
    private(set) var repairs: TextRepairs = []
    /// Arrays and objects open around the current byte; bounded, so no input can exhaust the stack.
    var depth = 0
    /// Every byte of strings scanned since a string was skipped, or'ed: a high bit means bytes beyond ASCII, whose
    /// UTF-8 is then checked, so a skipped member is checked as strictly as a built one.
    private var scannedBits: UInt64 = 0
    package static let maximumDepth = 512

    package init(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0, ignoring ignoredKeys: JSONKeySet = .none) {
        self.bytes = bytes
        self.offset = offset
        self.ignoredKeys = ignoredKeys
    }

    package var currentByte: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    @inline(__always)
    package mutating func skipWhitespace() {
        while offset < bytes.count, Self.isWhitespace(bytes[offset]) { offset += 1 }
    }

    @discardableResult
    @inline(__always)
    package mutating func skip(_ byte: UInt8) -> Bool {
        guard currentByte == byte else { return false }
        offset += 1
        return true
    }

    package mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = currentByte else { throw error("a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("a value")
        }
    }

    package func error(_ expected: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, expected: expected)
    }

    /// Parses an object; members in `ignoredKeys` are checked (`skipValue`) and left out.
    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        offset += 1
        var members = JSONObject()
        skipWhitespace()
        if skip(UInt8(ascii: "}")) { return .object(members) }
        // Room for a small object at once: growing one member at a time was an allocation per doubling.
        members.reserveCapacity(8)
        repeat {
            skipWhitespace()
            guard currentByte == UInt8(ascii: "\"") else { throw error("a member name in quotes") }
            let keyStart = offset + 1
            let key = try parseString()
            let keep = !isIgnored(keyStart..<offset - 1)
            skipWhitespace()
            guard skip(UInt8(ascii: ":")) else { throw error("':' after a member name") }
            if keep { members.append(key, try parseValue()) } else { try skipValue() }
            skipWhitespace()
        } while skip(UInt8(ascii: ","))
        guard skip(UInt8(ascii: "}")) else { throw error("',' or '}' in an object") }
        return .object(members)
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if skip(UInt8(ascii: "]")) { return .array(elements) }
        elements.reserveCapacity(4)
        repeat {
            elements.append(try parseValue())
            skipWhitespace()
        } while skip(UInt8(ascii: ","))
        guard skip(UInt8(ascii: "]")) else { throw error("',' or ']' in an array") }
        return .array(elements)
    }

    mutating func enter() throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else {
            throw error("no more than \(Self.maximumDepth) arrays and objects inside one another")
        }
        depth += 1
    }

    @inline(__always)
    func isIgnored(_ key: Range<Int>) -> Bool {
        ignoredKeys.contains(UnsafeBufferPointer(rebasing: bytes[key]))
    }

    /// Checks a value as strictly as `parseValue` without building it: read onto a tape that keeps nothing.
    mutating func skipValue() throws(JSONSyntaxError) {
        var nothing = NoTape()
        try tapeValue(onto: &nothing)
    }

    /// Checks a string, from its opening quote, without building it; returns whether it holds escapes.
    mutating func skipString() throws(JSONSyntaxError) -> Bool {
        offset += 1
        let start = offset
        scannedBits = 0
        var escaped = false
        while true {
            try scanToQuoteOrBackslash()
            offset += 1
            if bytes[offset - 1] == UInt8(ascii: "\"") { break }
            escaped = true
            try skipEscape()
        }
        // Escapes are ASCII, so the raw bytes are UTF-8 exactly when the string they spell is.
        if scannedBits & 0x8080_8080_8080_8080 != 0,
            !UTF8Check.isValid(UnsafeBufferPointer(rebasing: bytes[start..<offset - 1]))
        {
            repairs.insert(.invalidUTF8)
        }
        return escaped
    }

    /// Checks an escape after a backslash as strictly as `appendEscape`, building nothing.
    private mutating func skipEscape() throws(JSONSyntaxError) {
        _ = try escapedScalar()
    }

    /// What the escape after a backslash stands for, checked.
    @inline(__always)
    private mutating func escapedScalar() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = currentByte else { throw error("an escape sequence") }
        offset += 1
        if let simple = Self.simpleEscape(byte) { return Unicode.Scalar(simple) }
        guard byte == UInt8(ascii: "u") else {
            offset -= 1
            throw error("a valid escape sequence")
        }
        return try parseUnicodeEscape()
    }

    /// Moves to the next quote or backslash inside a string; throws at a raw control character or the input's end.
    @inline(__always)
    private mutating func scanToQuoteOrBackslash() throws(JSONSyntaxError) {
        while true {
            skipPlainStringBytes()
            guard offset < bytes.count else { throw error("the end of the string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return }
            if byte < 0x20 { throw error("the end of the string (a raw control character is not allowed)") }
            scannedBits |= UInt64(byte)
            offset += 1
        }
    }

    /// Skips bytes that need no attention inside a string (none a quote, a backslash or a control character), 16
    /// and then eight at a time, up to the first that does: most of a file is inside strings, and this is most of
    /// the time it takes to read it. Works on copies of the offset and the bits, which stay in registers.
    @inline(__always)
    private mutating func skipPlainStringBytes() {
        guard let base = bytes.baseAddress else { return }
        var offset = self.offset
        var bits = scannedBits
        defer { (self.offset, scannedBits) = (offset, bits) }
        func word(at offset: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        }
        while offset &+ 16 <= bytes.count {
            let (first, second) = (word(at: offset), word(at: offset &+ 8))
            guard Self.flags(first) | Self.flags(second) == 0 else { break }
            bits |= first | second
            offset &+= 16
        }
        while offset &+ 8 <= bytes.count {
            let word = word(at: offset)
            let flags = Self.flags(word)
            guard flags == 0 else {
                // A borrow only ever flags bytes above a true one, so the lowest flag is the first byte to look at.
                let plain = flags.trailingZeroBitCount / 8
                bits |= word & ((1 << UInt64(8 * plain)) &- 1)
                offset &+= plain
                return
            }
            bits |= word
            offset &+= 8
        }
    }

    /// The high bit of each byte of `word` that is a quote, a backslash or a control character, and perhaps of
    /// bytes after the first such (a borrow's doing): zero exactly when none is.
    @inline(__always)
    private static func flags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let flagged =
            ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
        return flagged & (ones &* 0x80)
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("'\(word)'") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
            throw error("'\(word)'")
        }
        offset += count
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = offset
        try skipNumber()
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
    }

    /// Checks a number without building it.
    mutating func skipNumber() throws(JSONSyntaxError) {
        _ = skip(UInt8(ascii: "-"))
        if skip(UInt8(ascii: "0")) {
            // RFC 8259: `07` is not a number, and reading it as 7 would accept a corrupted line as good.
            if let byte = currentByte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                throw error("no digit after a leading 0")
            }
        } else {
            guard try skipDigits() > 0 else { throw error("a digit") }
        }
        if skip(UInt8(ascii: ".")) {
            guard try skipDigits() > 0 else { throw error("a digit after '.'") }
        }
        if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
            if !skip(UInt8(ascii: "+")) { _ = skip(UInt8(ascii: "-")) }
            guard try skipDigits() > 0 else { throw error("a digit in the exponent") }
        }
    }

    private mutating func skipDigits() throws(JSONSyntaxError) -> Int {
        let start = offset
        while let byte = currentByte, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
        return offset - start
    }

    /// Parses a string starting at its opening quote. The common case, no escapes, is a single scan and one copy.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        offset += 1
        let start = offset
        try scanToQuoteOrBackslash()
        guard bytes[offset] == UInt8(ascii: "\"") else { return try parseEscapedString(from: start) }
        defer { offset += 1 }
        return string(from: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
    }

    /// From the first backslash on: runs between escapes are copied whole.
    private mutating func parseEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(2 * (offset - start) + 16)
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while bytes[offset] == UInt8(ascii: "\\") {
            offset += 1
            try appendEscape(to: &utf8)
            let run = offset
            try scanToQuoteOrBackslash()
            utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<offset]))
        }
        offset += 1
        return utf8.withUnsafeBufferPointer { string(from: $0) }
    }

    /// All the bytes as the inside of a string already checked (a tape's), its escapes decoded straight into the
    /// string's storage: no escape spells more bytes than it takes, so the raw length is room enough.
    mutating func checkedString() -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            var written = 0
            while offset < bytes.count {
                let backslash =
                    memchr(bytes.baseAddress! + offset, Int32(UInt8(ascii: "\\")), bytes.count - offset).map {
                        UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
                    } ?? bytes.count
                (buffer.baseAddress! + written).update(from: bytes.baseAddress! + offset, count: backslash - offset)
                written += backslash - offset
                offset = backslash + 1
                guard backslash < bytes.count else { break }
                if let simple = Self.simpleEscape(bytes[offset]) {
                    buffer[written] = simple
                    written += 1
                    offset += 1
                    continue
                }
                offset += 1
                UTF8.encode((try? parseUnicodeEscape()) ?? "\u{FFFD}") {
                    buffer[written] = $0
                    written += 1
                }
            }
            return written
        }
    }

    /// What a one-letter escape after a backslash stands for; nil for `u` and for what is no escape.
    private static func simpleEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The UTF-8 as a string; bytes that are not UTF-8 become U+FFFD, and the repair is noted. Checked by hand
    /// rather than with `String(validating:)`, which is not specialised and looks its types up on every call.
    private mutating func string(from utf8: UnsafeBufferPointer<UInt8>) -> String {
        if !UTF8Check.isValid(utf8) { repairs.insert(.invalidUTF8) }
        return String(decoding: utf8, as: UTF8.self)
    }

    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONSyntaxError) {
        UTF8.encode(try escapedScalar()) { utf8.append($0) }
    }

    /// `\uXXXX`, joining a UTF-16 surrogate pair; a lone surrogate becomes U+FFFD as most decoders do, noted.
    @inline(__always)
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let first = try parseHex4()
        guard (0xD800..<0xDC00).contains(first) else { return Unicode.Scalar(first) ?? loneSurrogate() }
        let resume = offset
        guard skip(UInt8(ascii: "\\")), skip(UInt8(ascii: "u")) else { return loneSurrogate() }
        let second = try parseHex4()
        guard (0xDC00..<0xE000).contains(second) else {
            offset = resume
            return loneSurrogate()
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? loneSurrogate()
    }

    private mutating func loneSurrogate() -> Unicode.Scalar {
        repairs.insert(.loneSurrogate)
        return "\u{FFFD}"
    }

    @inline(__always)
    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        // Text in other scripts arrives as `\uXXXX` escapes, one a character: the four digits are read at once,
        // without a branch a digit, and only a sequence that is not four hex digits goes the slow way to its error.
        if offset + 4 <= bytes.count {
            let digits = (
                Self.hexDigit(bytes[offset]), Self.hexDigit(bytes[offset + 1]), Self.hexDigit(bytes[offset + 2]),
                Self.hexDigit(bytes[offset + 3])
            )
            if digits.0 | digits.1 | digits.2 | digits.3 < 16 {
                offset += 4
                return digits.0 << 12 | digits.1 << 8 | digits.2 << 4 | digits.3
            }
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = currentByte, let digit = Self.hexValue(byte) else {
                throw error("four hex digits after \\u")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    /// A hex digit's value, 0 to 15; 16 or more for any other byte.
    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> UInt32 {
        let decimal = UInt32(byte &- UInt8(ascii: "0"))
        let letter = UInt32((byte | 0x20) &- UInt8(ascii: "a"))  // A-F and a-f alike
        return decimal < 10 ? decimal : (letter < 6 ? letter + 10 : 16)
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
