/// One JSON value laid out flat as `JSONParser` reads it: an entry per value and per member name, in document order,
/// strings left as byte ranges of the input until a decoder asks for them.
///
/// A tree of `JSONValue`s costs an allocation per object, array and long string, a reference count on every
/// lookup, and freeing it all afterwards: on a twarc2 file, more than decoding the posts from it. A tape is one
/// array, and its values (`JSONTapeValue`) answer what the tree's answer for the same JSON.
package enum JSONTape {
    /// Reads `bytes` — one object, then nothing but spaces — and gives its root to `body`. Nil, and `body` never
    /// called, when the bytes are not that, when the parser had anything to mend (invalid UTF-8, a lone surrogate:
    /// the tree reads them and says so), when a member's name holds an escape, or when a member of the root is not
    /// in `rootKeys`: a tape is a shortcut for the common case, and the tree reads everything else.
    package static func read<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, ignoring ignoredKeys: JSONKeySet, rootKeys: JSONKeySet,
        _ body: (JSONTapeValue) -> Result?
    ) -> Result? {
        guard let base = bytes.baseAddress, bytes.first == UInt8(ascii: "{"), bytes.count < Int(TapeEntry.none) else {
            return nil
        }
        var tape = TapeBuffer(capacity: bytes.count / 16 + 16)
        var parser = JSONParser(bytes, ignoring: ignoredKeys)
        do throws(JSONSyntaxError) {
            try parser.tapeObject(onto: &tape, rootKeys: rootKeys)
        } catch {
            return nil
        }
        parser.skipWhitespace()
        guard parser.currentByte == nil, parser.repairs.isEmpty else { return nil }
        return body(JSONTapeValue(entries: tape.entries, bytes: base, index: 0))
    }
}

/// A value on a tape. Valid only inside `JSONTape.read`'s body, which owns the tape and the bytes.
package struct JSONTapeValue: JSONNode {
    let entries: UnsafePointer<TapeEntry>
    let bytes: UnsafePointer<UInt8>
    let index: Int

    private var entry: TapeEntry { entries[index] }

    /// Walks the names from the last back, so a repeated name gives its last member, as `JSONObject` does.
    package subscript(key: StaticString) -> JSONTapeValue? {
        let entry = self.entry
        guard entry.kind == .object else { return nil }
        let length = key.utf8CodeUnitCount
        var name = entry.start
        while name != TapeEntry.none {
            let candidate = entries[Int(name)]
            if Int(candidate.end &- candidate.start) == length, isName(candidate, key.utf8Start, length) {
                return JSONTapeValue(entries: entries, bytes: bytes, index: Int(name) + 1)
            }
            name = candidate.jump
        }
        return nil
    }

    private func isName(_ name: TapeEntry, _ key: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        JSONKeySet.equal(bytes + Int(name.start), key, length)
    }

    package var array: JSONTapeElements? {
        let entry = self.entry
        guard entry.kind == .array else { return nil }
        return JSONTapeElements(entries: entries, bytes: bytes, startIndex: index + 1, endIndex: Int(entry.jump))
    }

    /// Read from the digits when they are a few with at most a minus sign, which `Int(_:)` reads the same (an
    /// entity's offsets); anything else as `Int(_:)` reads the text.
    package var int: Int? {
        let entry = self.entry
        guard entry.kind == .number || entry.kind == .string else { return string.flatMap { Int($0) } }
        var index = Int(entry.start)
        let end = Int(entry.end)
        let negative = index < end && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard (1...18).contains(end - index) else { return string.flatMap { Int($0) } }
        var value = 0
        while index < end {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return string.flatMap { Int($0) } }
            value = 10 * value + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// Built from the bytes when asked: most of a page's strings are never read.
    package var string: String? {
        let entry = self.entry
        let utf8 = UnsafeBufferPointer(start: bytes + Int(entry.start), count: Int(entry.end &- entry.start))
        switch entry.kind {
        case .string, .number: return String(decoding: utf8, as: UTF8.self)
        case .escapedString:
            // Decoded by the parser that checked it, so escapes mean what they meant.
            var parser = JSONParser(utf8)
            return parser.checkedString()
        default: return nil
        }
    }
}

/// An array's elements on a tape.
package struct JSONTapeElements: Collection {
    let entries: UnsafePointer<TapeEntry>
    let bytes: UnsafePointer<UInt8>
    package let startIndex: Int
    package let endIndex: Int

    package func index(after index: Int) -> Int {
        Int(entries[index].jump)
    }

    package subscript(index: Int) -> JSONTapeValue {
        JSONTapeValue(entries: entries, bytes: bytes, index: index)
    }
}

/// Where a parser puts the entries of a value it reads without building a tree.
protocol TapeRecorder: ~Copyable {
    /// Whether entries are kept. A tape compares names as bytes, so it declines a name with escapes; one that keeps
    /// nothing takes them, and has no members to leave off.
    static var keepsEntries: Bool { get }
    var count: Int { get }
    mutating func append(_ entry: TapeEntry)
    subscript(index: Int) -> TapeEntry { get set }
}

/// A tape that keeps nothing: a value only checked (a member no one reads).
struct NoTape: TapeRecorder {
    static var keepsEntries: Bool { false }
    var count: Int { 0 }
    func append(_ entry: TapeEntry) {}

    subscript(index: Int) -> TapeEntry {
        get { TapeEntry(kind: .literal, start: 0, end: 0, jump: 0) }
        set {}
    }
}

/// The entries of a tape as they are written: one allocation, doubled when full, and no check per entry that it is
/// not shared (an array's `append` makes one).
struct TapeBuffer: ~Copyable, TapeRecorder {
    static var keepsEntries: Bool { true }

    private var base: UnsafeMutablePointer<TapeEntry>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { base.deallocate() }

    var entries: UnsafePointer<TapeEntry> { UnsafePointer(base) }

    mutating func append(_ entry: TapeEntry) {
        if count == capacity { grow() }
        (base + count).initialize(to: entry)
        count += 1
    }

    subscript(index: Int) -> TapeEntry {
        get { base[index] }
        set { base[index] = newValue }
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<TapeEntry>.allocate(capacity: 2 * capacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}

/// One value or member name on a tape: 16 bytes.
struct TapeEntry {
    enum Kind: UInt8 { case object, array, string, escapedString, number, literal }

    static let none = UInt32.max

    var kind: Kind
    /// A string's first byte after its opening quote, a number's first byte; an object's last member name (its
    /// entry), or `none` when it has no members.
    var start: UInt32
    /// Just past a string's last byte before its closing quote, or past a number.
    var end: UInt32
    /// For a value, the entry after it and everything in it; for a member name, the entry of the name before it in
    /// its object, or `none`.
    var jump: UInt32
}

extension JSONParser {
    /// An object onto the tape, checked as strictly as `parseValue` checks it; members in `ignoredKeys` are checked
    /// and left off. `rootKeys`: the names its members may have (nil: any).
    mutating func tapeObject<Tape: TapeRecorder & ~Copyable>(
        onto tape: inout Tape, rootKeys: JSONKeySet? = nil
    )
        throws(JSONSyntaxError)
    {
        try enter()
        defer { depth -= 1 }
        let object = tape.count
        tape.append(TapeEntry(kind: .object, start: TapeEntry.none, end: 0, jump: 0))
        offset += 1
        skipWhitespace()
        var lastName = TapeEntry.none
        if !skip(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard currentByte == UInt8(ascii: "\"") else { throw error("a member name in quotes") }
                let start = offset + 1
                let escaped = try skipString()
                let name = start..<offset - 1
                if escaped && Tape.keepsEntries
                    || rootKeys?.contains(UnsafeBufferPointer(rebasing: bytes[name])) == false
                {
                    throw error("a member a tape takes")
                }
                skipWhitespace()
                guard skip(UInt8(ascii: ":")) else { throw error("':' after a member name") }
                if Tape.keepsEntries, isIgnored(name) {
                    try skipValue()
                } else {
                    let entry = UInt32(tape.count)
                    tape.append(
                        TapeEntry(
                            kind: .string, start: UInt32(name.lowerBound), end: UInt32(name.upperBound), jump: lastName)
                    )
                    lastName = entry
                    try tapeValue(onto: &tape)
                }
                skipWhitespace()
            } while skip(UInt8(ascii: ","))
            guard skip(UInt8(ascii: "}")) else { throw error("',' or '}' in an object") }
        }
        tape[object].start = lastName
        tape[object].jump = UInt32(tape.count)
    }

    private mutating func tapeArray<Tape: TapeRecorder & ~Copyable>(onto tape: inout Tape) throws(JSONSyntaxError) {
        try enter()
        defer { depth -= 1 }
        let array = tape.count
        tape.append(TapeEntry(kind: .array, start: 0, end: 0, jump: 0))
        offset += 1
        skipWhitespace()
        if !skip(UInt8(ascii: "]")) {
            repeat {
                try tapeValue(onto: &tape)
                skipWhitespace()
            } while skip(UInt8(ascii: ","))
            guard skip(UInt8(ascii: "]")) else { throw error("',' or ']' in an array") }
        }
        tape[array].jump = UInt32(tape.count)
    }

    /// A value onto the tape, checked as strictly as `parseValue` checks it.
    mutating func tapeValue<Tape: TapeRecorder & ~Copyable>(onto tape: inout Tape) throws(JSONSyntaxError) {
        skipWhitespace()
        guard let byte = currentByte else { throw error("a value") }
        let start = offset
        let kind: TapeEntry.Kind
        switch byte {
        case UInt8(ascii: "{"): return try tapeObject(onto: &tape)
        case UInt8(ascii: "["): return try tapeArray(onto: &tape)
        case UInt8(ascii: "\""):
            kind = try skipString() ? .escapedString : .string
            tape.append(
                TapeEntry(kind: kind, start: UInt32(start + 1), end: UInt32(offset - 1), jump: UInt32(tape.count + 1)))
            return
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
            kind = .number
        default:
            _ = try parseValue()
            kind = .literal
        }
        tape.append(TapeEntry(kind: kind, start: UInt32(start), end: UInt32(offset), jump: UInt32(tape.count + 1)))
    }
}
