/// Writes compact JSON by hand, straight into UTF-8: a v2 page is a few hundred kilobytes and a demo corpus a
/// million posts, so there is no intermediate tree. Commas are placed by the writer, never by callers.
package struct JSONWriter: Sendable {
    package private(set) var output = ByteWriter(capacity: 4096)
    private var needsComma = false

    package init() {}

    package var isEmpty: Bool { output.bytes.isEmpty }

    package var byteCount: Int { output.bytes.count }

    package mutating func beginObject(_ key: String? = nil) {
        open(key, UInt8(ascii: "{"))
    }

    package mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    package mutating func beginArray(_ key: String? = nil) {
        open(key, UInt8(ascii: "["))
    }

    package mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    package mutating func member(_ key: String, _ value: String) {
        writeKey(key)
        writeString(value.utf8, escapingHTML: false)
    }

    package mutating func member(_ key: String, _ value: Int) {
        writeKey(key)
        output.append(decimal: value)
    }

    /// Post text as Twitter delivers it: `&`, `<` and `>` as `&amp;`, `&lt;` and `&gt;`.
    package mutating func member(_ key: String, htmlEscaping value: String) {
        writeKey(key)
        writeString(value.utf8, escapingHTML: true)
    }

    /// A number already in JSON form, e.g. a Double's shortest representation.
    package mutating func member(_ key: String, number: String) {
        writeKey(key)
        output.append(number)
    }

    package mutating func member(_ key: String, boolean: Bool) {
        member(key, number: boolean ? "true" : "false")
    }

    /// A value that is already JSON, copied as it is.
    package mutating func element(json: String) {
        separate()
        output.append(json)
    }

    package mutating func element(_ value: Int) {
        separate()
        output.append(decimal: value)
    }

    package mutating func element(_ value: String) {
        separate()
        writeString(value.utf8, escapingHTML: false)
    }

    /// Ends a line of JSON Lines: what follows starts a new value.
    package mutating func newLine() {
        output.append(byte: UInt8(ascii: "\n"))
        needsComma = false
    }

    /// Whole lines another writer wrote, after this one's (JSON Lines gathered to go out together).
    package mutating func appendLines(_ lines: [UInt8]) {
        output.append(bytes: lines)
        needsComma = false
    }

    /// What was written so far; the writer starts again empty, with the room it had.
    package mutating func take() -> [UInt8] {
        defer { output.removeAll() }
        return output.bytes
    }

    /// `key: [elements]`, the elements written by another writer (a page's sections are built side by side).
    package mutating func member(_ key: String, elementsOf other: JSONWriter) {
        beginArray(key)
        output.append(bytes: other.output.bytes)
        endArray()
    }

    private mutating func open(_ key: String?, _ bracket: UInt8) {
        if let key { writeKey(key) } else { separate() }
        output.append(byte: bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        output.append(byte: bracket)
        needsComma = true
    }

    private mutating func writeKey(_ key: String) {
        separate()
        writeString(key.utf8, escapingHTML: false)
        output.append(byte: UInt8(ascii: ":"))
    }

    private mutating func separate() {
        if needsComma { output.append(byte: UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Non-ASCII goes out as raw UTF-8; only quotes, backslashes and control characters need escapes, written as
    /// `JSONEncoder` writes them. Runs that need none are copied whole: this is most of a page's bytes.
    private mutating func writeString(_ utf8: String.UTF8View, escapingHTML: Bool) {
        output.append(byte: UInt8(ascii: "\""))
        if utf8.withContiguousStorageIfAvailable({ writeEscaped($0, escapingHTML: escapingHTML) }) == nil {
            Array(utf8).withUnsafeBufferPointer { writeEscaped($0, escapingHTML: escapingHTML) }
        }
        output.append(byte: UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, escapingHTML: Bool) {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            if !escapingHTML, let clean = Self.plainWord(bytes, at: index) {
                index += clean
                continue
            }
            if Self.needsEscape(bytes[index], escapingHTML: escapingHTML) {
                output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                writeEscape(bytes[index])
                runStart = index + 1
            }
            index += 1
        }
        output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// 8 when the eight bytes at `index` need no escape (no quote, backslash or control character), else nil: most
    /// of a post's text is copied a word at a time.
    @inline(__always)
    private static func plainWord(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index + 8 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let flagged =
            ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
        return flagged & (ones &* 0x80) == 0 ? 8 : nil
    }

    private static func needsEscape(_ byte: UInt8, escapingHTML: Bool) -> Bool {
        switch byte {
        case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"): true
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): escapingHTML
        default: false
        }
    }

    private mutating func writeEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): output.append("\\\"")
        case UInt8(ascii: "\\"): output.append("\\\\")
        case UInt8(ascii: "\n"): output.append("\\n")
        case UInt8(ascii: "\r"): output.append("\\r")
        case UInt8(ascii: "\t"): output.append("\\t")
        case 0x08: output.append("\\b")
        case 0x0C: output.append("\\f")
        case UInt8(ascii: "&"): output.append("&amp;")
        case UInt8(ascii: "<"): output.append("&lt;")
        case UInt8(ascii: ">"): output.append("&gt;")
        default: writeControl(byte)
        }
    }

    private mutating func writeControl(_ byte: UInt8) {
        output.append("\\u00")
        output.append(byte: Self.hexDigits[Int(byte >> 4)])
        output.append(byte: Self.hexDigits[Int(byte & 0xF)])
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
