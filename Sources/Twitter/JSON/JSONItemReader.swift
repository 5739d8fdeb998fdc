/// One top-level item of a file: a JSON value and where it starts (`JSONItemReader.line(at:)` makes that a line).
struct JSONItem: Sendable {
    let value: JSONValue
    let offset: Int
}

/// What reading the next item gave.
enum JSONItemResult: Sendable {
    case item(JSONItem)
    case malformed(line: Int, message: String)
    /// A line of prose between JSON documents, as Twitter's own sample files have.
    case textLine(line: Int)
}

/// Reads the top-level items of a file: one JSON document, JSON Lines, values back to back, or a Twitter archive's
/// `window.YTD.… = [ … ]`. The elements of a top-level array are items of their own, so one huge array costs no
/// more memory per item than JSON Lines do.
///
/// After a malformed line it resumes at the next line (JSON Lines lose only the broken line); inside a top-level
/// array, or once the input has proved not to be JSON at all, it stops.
struct JSONItemReader: Sendable {
    /// Past this many broken lines the file is taken to be something else and reading stops.
    static let maximumProblems = 20

    private let bytes: [UInt8]
    private let ignoredKeys: [[UInt8]]
    private var offset = 0
    private var lines = LineCounter()
    private var inTopLevelArray = false
    private var problems = 0
    private var finished = false
    private var itemsRead = 0
    /// The input started with `window.YTD.…`, as a Twitter archive's data files do.
    private(set) var isArchive = false

    /// `ignoredKeys`: members the caller never reads, checked but not built (see `JSONParser`).
    init(bytes: [UInt8], ignoring ignoredKeys: [String] = []) {
        self.bytes = bytes
        self.ignoredKeys = ignoredKeys.map { Array($0.utf8) }
        skipPreamble()
    }

    mutating func next() -> JSONItemResult? {
        guard !finished else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, offset: offset, ignoring: ignoredKeys)
            return inTopLevelArray ? nextElement(&parser) : nextTopLevel(&parser)
        }
    }

    private mutating func nextTopLevel(_ parser: inout JSONParser) -> JSONItemResult? {
        skipSeparators(&parser)
        guard let byte = parser.currentByte else { return finish() }
        if byte == UInt8(ascii: "[") {
            parser.skip(UInt8(ascii: "["))
            inTopLevelArray = true
            offset = parser.offset
            return nextElement(&parser)
        }
        let start = parser.offset
        do throws(JSONSyntaxError) {
            let value = try parser.parseValue()
            offset = parser.offset
            return item(value, at: start)
        } catch {
            if itemsRead > 0, error.offset == start, Self.isLetter(byte), let next = startOfLine(after: start) {
                offset = next
                return .textLine(line: lines.line(at: start, in: bytes))
            }
            return malformed(error, itemStart: start, resumable: itemsRead > 0 || error.offset > start)
        }
    }

    private mutating func nextElement(_ parser: inout JSONParser) -> JSONItemResult? {
        parser.skipWhitespace()
        if parser.skip(UInt8(ascii: "]")) {
            inTopLevelArray = false
            offset = parser.offset
            return nextTopLevel(&parser)
        }
        let start = parser.offset
        do throws(JSONSyntaxError) {
            let value = try parser.parseValue()
            parser.skipWhitespace()
            if !parser.skip(UInt8(ascii: ",")), parser.currentByte != UInt8(ascii: "]") {
                throw parser.error("',' or ']' after an array element")
            }
            offset = parser.offset
            return item(value, at: start)
        } catch {
            return malformed(error, itemStart: start, resumable: false)
        }
    }

    private mutating func item(_ value: JSONValue, at start: Int) -> JSONItemResult {
        itemsRead += 1
        return .item(JSONItem(value: value, offset: start))
    }

    /// The 1-based line of a byte offset; counted only when asked, since most items never need it.
    mutating func line(at offset: Int) -> Int {
        lines.line(at: offset, in: bytes)
    }

    private mutating func malformed(_ error: JSONSyntaxError, itemStart: Int, resumable: Bool) -> JSONItemResult {
        let line = lines.line(at: itemStart, in: bytes)
        let message = describe(error, itemLine: line)
        problems += 1
        if resumable, problems < Self.maximumProblems, let next = startOfLine(after: itemStart) {
            offset = next
        } else {
            finished = true
        }
        return .malformed(line: line, message: message)
    }

    private func describe(_ error: JSONSyntaxError, itemLine: Int) -> String {
        guard error.offset < bytes.count else {
            return "malformed JSON: the input ends where \(error.expected) was expected"
        }
        var counter = LineCounter()
        let errorLine = counter.line(at: error.offset, in: bytes)
        let column = error.offset - (bytes[..<error.offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        let place = errorLine == itemLine ? "column \(column)" : "line \(errorLine), column \(column)"
        return "malformed JSON: expected \(error.expected) at \(place)"
    }

    private mutating func finish() -> JSONItemResult? {
        finished = true
        return nil
    }

    /// Between top-level values: whitespace, and the `;` a JavaScript file may end with.
    private func skipSeparators(_ parser: inout JSONParser) {
        repeat { parser.skipWhitespace() } while parser.skip(UInt8(ascii: ";"))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private func startOfLine(after position: Int) -> Int? {
        guard let newline = bytes[position...].firstIndex(of: 0x0A) else { return nil }
        return newline + 1
    }

    /// Skips a UTF-8 byte order mark and an archive's `window.YTD.tweets.part0 =`.
    private mutating func skipPreamble() {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        let rest = bytes[offset...].drop(while: JSONParser.isWhitespace)
        guard rest.starts(with: Array("window.".utf8)), let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { return }
        isArchive = true
        offset = equals + 1
    }
}

/// Turns byte offsets into 1-based line numbers, counting each stretch of the input once as offsets advance.
private struct LineCounter: Sendable {
    private var countedUpTo = 0
    private var line = 1

    mutating func line(at offset: Int, in bytes: [UInt8]) -> Int {
        if offset < countedUpTo { (countedUpTo, line) = (0, 1) }
        bytes.withUnsafeBufferPointer { buffer in
            for index in countedUpTo..<offset where buffer[index] == 0x0A { line += 1 }
        }
        countedUpTo = offset
        return line
    }
}
