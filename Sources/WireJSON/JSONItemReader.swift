#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One top-level item of a file: a JSON value and where it starts (`JSONItemReader.line(at:)` makes that a line).
package struct JSONItem: Sendable {
    package let value: JSONValue
    package let offset: Int
    /// What had to be mended to read it (invalid UTF-8, lone surrogates): kept, and worth a note.
    package var repairs: TextRepairs = []
}

/// What reading the next item gave.
package enum JSONItemResult: Sendable {
    case item(JSONItem)
    case malformed(line: Int, message: String)
    /// A line of prose between JSON documents, as Twitter's own sample files have.
    case textLine(line: Int)
}

/// Reads the top-level items of a file: one JSON document, JSON Lines, values back to back, or a Twitter archive's
/// `window.YTD.… = [ … ]`. The elements of a top-level array are items of their own, so one huge array costs no
/// more memory per item than JSON Lines do.
///
/// Input arrives in chunks: the reader keeps a window from the current item on, and when an item runs past the
/// window's end it drops what it has read and appends the next chunk, so memory stays flat however big the file.
///
/// After a malformed line it resumes at the next line, however many there are: JSON Lines lose only the broken
/// lines, each named by its own number. Once the first value has shown the file to be JSON Lines (it sat alone on
/// its line), a value running over several lines is such a broken line too; and a `[` that turns out not to open an
/// array of elements is one. Only inside a top-level array whose elements have begun does a broken element stop
/// reading, since no line there is known to start the next one.
package struct JSONItemReader: Sendable {
    /// Where reading is; saved before each attempt so an item cut by the window's end can be read again whole.
    private struct Position: Sendable {
        var offset = 0
        var inTopLevelArray = false
        /// Where the top-level array being read opened, until its first element is read.
        var arrayOpening: Int?
        /// Decided by the first top-level value: alone on its line, the file is JSON Lines, and from then on a
        /// value that runs over several lines is broken lines, not a document.
        var isJSONLines: Bool?
        var finished = false
        var itemsRead = 0
    }

    private var bytes: [UInt8]
    private var chunks: (any ByteChunks)?
    private let ignoredKeys: JSONKeySet
    private var position = Position()
    private var lines = LineCounter()
    /// Where the window starts in the input.
    private var windowStart = 0
    /// Where reading stops: the next item would start at or after this offset of the input.
    private var end: Int?
    /// Set when an attempt reached the window's end before the input's.
    private var cutShort = false
    /// Why the input ended early, reported once after the last item.
    private var readFailure: String?
    /// The input started with `window.YTD.…`, as a Twitter archive's data files do.
    package private(set) var isArchive = false

    /// `ignoredKeys`: members the caller never reads, checked but not built (see `JSONParser`).
    package init(bytes: [UInt8], ignoring ignoredKeys: [String] = []) {
        self.bytes = bytes
        self.ignoredKeys = JSONKeySet(ignoredKeys)
        skipPreamble()
    }

    /// Reads `chunks` as they come.
    package init(chunks: some ByteChunks, ignoring ignoredKeys: [String] = []) {
        self.bytes = []
        self.chunks = chunks
        self.ignoredKeys = JSONKeySet(ignoredKeys)
        // Enough to see an archive's `window.YTD.tweets.part0 = [` whole.
        while bytes.count < 256, !atEndOfInput { readMore() }
        skipPreamble()
    }

    /// Lines of a JSON Lines file from `firstLine` on, cut at a line's end (`JSONLinesRest`): read as the whole file's
    /// reader reads them there. An item that runs past the last line is malformed here, where the whole file's
    /// reader would say where it ends: a caller that gets a malformed item reads the lines again with
    /// `init(rereading:)`.
    package init(jsonLines bytes: [UInt8], firstLine: Int, ignoring ignoredKeys: JSONKeySet) {
        self.bytes = bytes
        self.ignoredKeys = ignoredKeys
        position.isJSONLines = true
        position.itemsRead = 1
        lines = LineCounter(firstLine: firstLine)
    }

    /// The same lines read again as the whole file's reader reads them: from where `rest` starts, seeing past their
    /// end, until an item would start at or after `count` bytes on.
    package init(rereading rest: JSONLinesRest, count: Int) {
        self.bytes = []
        self.chunks = rest.chunks.rereading(from: rest.offset)
        self.ignoredKeys = rest.ignoredKeys
        position.isJSONLines = true
        position.itemsRead = 1
        lines = LineCounter(firstLine: rest.line)
        end = count
        readMore()
    }

    /// The rest of the input, once the first item has shown it to be JSON Lines and it can be read again from any
    /// offset (a file): every line from there on reads the same on its own, so the caller may read them in
    /// parallel. This reader is finished after it.
    package mutating func handOffJSONLines() -> JSONLinesRest? {
        guard position.isJSONLines == true, !position.inTopLevelArray, !position.finished, readFailure == nil,
            end == nil, let chunks = chunks as? any RereadableChunks, chunks.rereading(from: 0) != nil
        else { return nil }
        position.finished = true
        return JSONLinesRest(
            window: Array(bytes[position.offset...]), offset: windowStart + position.offset,
            line: lines.line(at: position.offset, in: bytes), chunks: chunks, ignoredKeys: ignoredKeys)
    }

    /// Whether the input has been read to its end (the window holds everything that is left).
    private var atEndOfInput: Bool { chunks == nil }

    package mutating func next() -> JSONItemResult? {
        while true {
            guard !position.finished else { return reportReadFailure() }
            let saved = position
            let result = bytes.withUnsafeBufferPointer { buffer in
                var parser = JSONParser(buffer, offset: position.offset, ignoring: ignoredKeys)
                return position.inTopLevelArray ? nextElement(&parser) : nextTopLevel(&parser)
            }
            guard cutShort else { return result ?? reportReadFailure() }
            cutShort = false
            position = saved
            slideWindow()
        }
    }

    /// In JSON Lines, once the first item has shown the file to be so: the next line, from its first byte that is not
    /// a separator to its end, offered to `read`, and taken when `read` takes it; the offset is where it starts. Nil,
    /// and nothing taken, when the line is not whole in the window yet or `read` declines it: `next()` reads it.
    package mutating func nextLine<Result>(
        _ read: (UnsafeBufferPointer<UInt8>) -> Result?
    ) -> (result: Result, offset: Int)? {
        guard position.isJSONLines == true, !position.inTopLevelArray, !position.finished else { return nil }
        let taken = bytes.withUnsafeBufferPointer { buffer -> (result: Result, offset: Int, end: Int)? in
            var parser = JSONParser(buffer, offset: position.offset)
            skipSeparators(&parser)
            let start = parser.offset
            guard start < buffer.count, windowStart + start < end ?? .max else { return nil }
            let newline = memchr(buffer.baseAddress! + start, 0x0A, buffer.count - start).map {
                UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - buffer.baseAddress!
            }
            guard let lineEnd = newline ?? (atEndOfInput ? buffer.count : nil),
                let result = read(UnsafeBufferPointer(rebasing: buffer[start..<lineEnd]))
            else { return nil }
            return (result, start, lineEnd)
        }
        guard let taken else { return nil }
        position.offset = taken.end
        position.itemsRead += 1
        return (taken.result, taken.offset)
    }

    private mutating func reportReadFailure() -> JSONItemResult? {
        guard let failure = readFailure else { return nil }
        readFailure = nil
        return .malformed(
            line: lines.line(at: bytes.count, in: bytes), message: "the file could not be read to its end: \(failure)")
    }

    /// True, and remembered, when `offset` is past the window but the input goes on: the attempt must be redone.
    private mutating func cut(at offset: Int) -> Bool {
        if offset >= bytes.count, !atEndOfInput { cutShort = true }
        return cutShort
    }

    /// Drops the bytes before the current item and appends the next chunk.
    private mutating func slideWindow() {
        let consumed = position.offset
        lines.dropFirst(consumed, of: bytes)
        bytes.removeSubrange(..<consumed)
        windowStart += consumed
        position.offset = 0
        readMore()
    }

    private mutating func readMore() {
        do {
            if try chunks?.read(appendingTo: &bytes) != true { chunks = nil }
        } catch {
            chunks = nil
            readFailure = error.message
        }
    }

    private mutating func nextTopLevel(_ parser: inout JSONParser) -> JSONItemResult? {
        skipSeparators(&parser)
        if let end, windowStart + parser.offset >= end { return finish() }
        guard let byte = parser.currentByte else { return cut(at: parser.offset) ? nil : finish() }
        if byte == UInt8(ascii: "["), position.isJSONLines != true {
            position.arrayOpening = parser.offset
            parser.skip(UInt8(ascii: "["))
            position.inTopLevelArray = true
            position.offset = parser.offset
            return nextElement(&parser)
        }
        let start = parser.offset
        do throws(JSONSyntaxError) {
            let value = try parser.parseValue()
            // A number or literal at the window's end may go on in the next chunk.
            if cut(at: parser.offset) { return nil }
            let spansLines = containsNewline(start..<parser.offset)
            if position.isJSONLines == true, spansLines { return runOnLine(at: start, ending: parser.offset) }
            position.isJSONLines = position.isJSONLines ?? (!spansLines && endsItsLine(at: parser.offset))
            position.offset = parser.offset
            return item(value, at: start, repairs: parser.repairs)
        } catch {
            if cut(at: error.offset) { return nil }
            if position.itemsRead > 0, error.offset == start, Self.isLetter(byte) {
                if let next = startOfLine(after: start) {
                    position.offset = next
                    return .textLine(line: lines.line(at: start, in: bytes))
                }
                if cut(at: bytes.count) { return nil }
            }
            return malformed(error, itemStart: start, resumable: true)
        }
    }

    private mutating func nextElement(_ parser: inout JSONParser) -> JSONItemResult? {
        parser.skipWhitespace()
        if cut(at: parser.offset) { return nil }
        if parser.skip(UInt8(ascii: "]")) {
            position.inTopLevelArray = false
            position.offset = parser.offset
            return nextTopLevel(&parser)
        }
        let start = parser.offset
        do throws(JSONSyntaxError) {
            let value = try parser.parseValue()
            parser.skipWhitespace()
            if cut(at: parser.offset) { return nil }
            if !parser.skip(UInt8(ascii: ",")), parser.currentByte != UInt8(ascii: "]") {
                throw parser.error("',' or ']' after an array element")
            }
            position.offset = parser.offset
            position.arrayOpening = nil
            return item(value, at: start, repairs: parser.repairs)
        } catch {
            if cut(at: error.offset) { return nil }
            if let opening = position.arrayOpening { return unopenedArray(at: opening, error) }
            return malformed(error, itemStart: start, resumable: false)
        }
    }

    /// In JSON Lines, a value that starts on this line and ends on a later one: this line does not parse on its
    /// own, so it is one broken line, and reading goes on with the next.
    private mutating func runOnLine(at start: Int, ending end: Int) -> JSONItemResult? {
        var counter = lines
        let endLine = counter.line(at: end, in: bytes)
        let error = JSONSyntaxError(
            offset: start, expected: "a whole value on this line (JSON Lines), not one ending on line \(endLine)")
        return malformed(error, itemStart: start, resumable: true)
    }

    /// Whether only spaces follow `offset` up to the end of its line.
    private func endsItsLine(at offset: Int) -> Bool {
        let rest = bytes[offset...].drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        return rest.first.map { $0 == 0x0A } ?? true
    }

    private func containsNewline(_ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !range.isEmpty else { return false }
            return memchr(base + range.lowerBound, 0x0A, range.count) != nil
        }
    }

    /// A `[` whose first element did not read as one: the line it is on is one broken line (JSON Lines holding a
    /// stray `[`), and reading goes on after it instead of swallowing the next line into an array.
    private mutating func unopenedArray(at opening: Int, _ error: JSONSyntaxError) -> JSONItemResult? {
        position.inTopLevelArray = false
        position.arrayOpening = nil
        return malformed(error, itemStart: opening, resumable: true)
    }

    private mutating func item(_ value: JSONValue, at start: Int, repairs: TextRepairs) -> JSONItemResult {
        position.itemsRead += 1
        return .item(JSONItem(value: value, offset: start, repairs: repairs))
    }

    /// The 1-based line of a byte offset of the item just read; counted only when asked, since most items never
    /// need it.
    package mutating func line(at offset: Int) -> Int {
        lines.line(at: offset, in: bytes)
    }

    private mutating func malformed(_ error: JSONSyntaxError, itemStart: Int, resumable: Bool) -> JSONItemResult? {
        let next = startOfLine(after: itemStart)
        if resumable, next == nil, cut(at: bytes.count) { return nil }
        let line = lines.line(at: itemStart, in: bytes)
        let message = describe(error, itemLine: line)
        if resumable, let next {
            position.offset = next
        } else {
            position.finished = true
        }
        return .malformed(line: line, message: message)
    }

    private func describe(_ error: JSONSyntaxError, itemLine: Int) -> String {
        guard error.offset < bytes.count else {
            return "malformed JSON: the input ends where \(error.expected) was expected"
        }
        var counter = lines
        let errorLine = counter.line(at: error.offset, in: bytes)
        let column = error.offset - (bytes[..<error.offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        let place = errorLine == itemLine ? "column \(column)" : "line \(errorLine), column \(column)"
        return "malformed JSON: expected \(error.expected) at \(place)"
    }

    private mutating func finish() -> JSONItemResult? {
        position.finished = true
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
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position.offset = 3 }
        let rest = bytes[position.offset...].drop(while: JSONParser.isWhitespace)
        guard rest.starts(with: Array("window.".utf8)), let equals = rest.firstIndex(of: UInt8(ascii: "=")) else {
            return
        }
        isArchive = true
        position.offset = equals + 1
    }
}

/// Turns byte offsets into 1-based line numbers, counting each stretch of the input once as offsets advance.
private struct LineCounter: Sendable {
    /// The line the window starts on.
    private var firstLine: Int
    private var countedUpTo = 0
    private var line: Int

    init(firstLine: Int = 1) {
        self.firstLine = firstLine
        line = firstLine
    }

    package mutating func line(at offset: Int, in bytes: [UInt8]) -> Int {
        if offset < countedUpTo { (countedUpTo, line) = (0, firstLine) }
        line += newlines(in: bytes, countedUpTo..<offset)
        countedUpTo = offset
        return line
    }

    /// The window loses its first `count` bytes: their lines are counted before they go.
    package mutating func dropFirst(_ count: Int, of bytes: [UInt8]) {
        firstLine = line(at: count, in: bytes)
        (countedUpTo, line) = (0, firstLine)
    }
}

/// The newlines in `range` of `bytes`. Every byte of a file passes through here as the window slides: memchr skips
/// from newline to newline.
package func newlines(in bytes: [UInt8], _ range: Range<Int>) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress, !range.isEmpty else { return 0 }
        var count = 0
        var position = base + range.lowerBound
        let end = base + range.upperBound
        while position < end, let found = memchr(position, 0x0A, end - position) {
            count += 1
            position = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }
}

/// More input for a `JSONItemReader`.
package protocol ByteChunks: Sendable {
    /// Appends the next chunk; false at the end of the input.
    mutating func read(appendingTo bytes: inout [UInt8]) throws(DecodingProblem) -> Bool

    /// The same input again from `offset` on, leaving this one where it is; nil when it cannot be read again.
    func rereading(from offset: Int) -> (any ByteChunks)?
}

extension ByteChunks {
    package func rereading(from offset: Int) -> (any ByteChunks)? { nil }
}

/// An input that can be read again from any offset (a file), read straight into a buffer: the rest of a JSON Lines
/// file is read so, a piece at a time (`JSONLinesRest`).
package protocol RereadableChunks: ByteChunks {
    /// Reads the next bytes into `buffer`, at most as many as it holds; returns how many (0 at the end).
    mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DecodingProblem) -> Int
}

/// What is left of a JSON Lines input after its first item (`JSONItemReader.handOffJSONLines()`): the window that
/// was read past it, the input to read the rest from, and where the window starts.
package struct JSONLinesRest: Sendable {
    /// Bytes read but not yet taken: from just after the first item.
    package let window: [UInt8]
    /// Where `window` starts in the input.
    package let offset: Int
    /// The line `window` starts on.
    package let line: Int
    /// Reads on after `window`.
    package var chunks: any RereadableChunks
    package let ignoredKeys: JSONKeySet

    /// The same, `count` bytes on, on `line`: where the next piece of the rest starts.
    package func advanced(by count: Int, toLine line: Int) -> JSONLinesRest {
        JSONLinesRest(window: [], offset: offset + count, line: line, chunks: chunks, ignoredKeys: ignoredKeys)
    }
}
