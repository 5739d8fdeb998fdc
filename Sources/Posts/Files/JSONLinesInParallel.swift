import Synchronization
import WireJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rest of a JSON Lines file decoded on threads of its own, a piece of whole lines each, its events given back
/// in file order: parsing is nearly all of reading a file, and in JSON Lines each line reads the same on its own.
///
/// A piece reads as the whole file's reader would read it, but for an item that runs past the piece's last line:
/// a piece with any malformed item is read again, in order, as the whole file's reader reads it
/// (`JSONItemReader(rereading:count:)`), so every problem is reported as it was, at the same line.
struct JSONLinesInParallel<Decoder: ItemDecoder>: Sendable {
    /// A piece is at least this long (whole lines): big enough that starting a thread costs nothing, small enough
    /// that two cores share the work evenly.
    static var pieceSize: Int { 1 << 20 }
    /// Pieces read ahead. They cost unevenly (2 to 18 ms a megabyte on two cores: pages of long texts in other scripts
    /// beside pages of short ones) and are taken in file order, so while the caller waits for a slow one the others
    /// must have more to do than the next two: with three ahead a core stood idle at times (`inspect` of 100 MB
    /// 0.294 s; six 0.275 s; eight no faster, 4 MB more memory).
    static var piecesAhead: Int { 6 }

    private let name: String
    private let decoder: Decoder
    /// Where the next piece starts.
    private var rest: JSONLinesRest
    /// Read but not yet given to a piece: the start of a line whose end is still in the file.
    private var carried: [UInt8]
    private var atEndOfInput = false
    private var readFailure: String?
    private var ahead: [Piece] = []
    /// Posts written where they are decoded, when asked.
    private let writing: PostLineWriting?

    init(name: String, rest: JSONLinesRest, decoder: Decoder, writing: PostLineWriting?) {
        self.name = name
        self.decoder = decoder
        self.writing = writing
        self.carried = rest.window
        self.rest = rest
    }

    /// The events of the next piece; nil at the end of the file.
    mutating func next() -> [PostFileEvent]? {
        while ahead.count < Self.piecesAhead, let piece = nextPiece() {
            piece.start(name: name, decoder: decoder, writing: writing)
            ahead.append(piece)
        }
        guard !ahead.isEmpty else { return reportReadFailure() }
        let piece = ahead.removeFirst()
        let decoded = piece.wait()
        // The last piece ends where the file does, so it reads exactly as the whole file's reader reads it.
        guard decoded.hasMalformedItem, !piece.isLast else { return decoded.events }
        let again = PostItemReader(
            name: name, items: JSONItemReader(rereading: piece.rest, count: piece.lines.count), decoder: decoder,
            writing: writing)
        return Array(again)
    }

    /// Whole lines, about `pieceSize` bytes: from what was carried over when it holds that many (the window read
    /// before the hand-off), else from it and the next `pieceSize` bytes of the file, read straight into the piece's
    /// own bytes, up to the last line's end (the part of a line after it is carried to the next piece); the rest of
    /// the file when it ends first.
    private mutating func nextPiece() -> Piece? {
        if carried.count >= Self.pieceSize, let end = Self.lineEnd(in: carried, from: Self.pieceSize - 1) {
            var window = carried
            carried = []
            return cut(&window, at: end)
        }
        var capacity = carried.count + Self.pieceSize
        while true {
            var bytes = carried
            read(into: &bytes, upTo: capacity)
            if !atEndOfInput, let end = Self.lastLineEnd(in: bytes) { return cut(&bytes, at: end) }
            if atEndOfInput {
                carried = []
                return bytes.isEmpty ? nil : take(bytes, isLast: true)
            }
            // A line longer than the room: read on with more.
            carried = bytes
            capacity *= 2
        }
    }

    /// The lines before `end`, cut off in place; what follows is carried to the next piece.
    private mutating func cut(_ bytes: inout [UInt8], at end: Int) -> Piece {
        carried = Array(bytes[end...])
        bytes.removeLast(bytes.count - end)
        return take(bytes, isLast: false)
    }

    private mutating func take(_ lines: [UInt8], isLast: Bool) -> Piece {
        let piece = Piece(lines: lines, rest: rest, isLast: isLast)
        rest = rest.advanced(by: lines.count, toLine: rest.line + newlines(in: lines, lines.indices))
        return piece
    }

    /// Fills `bytes` from the file up to `capacity`, or to the end of the file.
    private mutating func read(into bytes: inout [UInt8], upTo capacity: Int) {
        let kept = bytes
        var failure: String?
        var ended = atEndOfInput
        bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = kept.count
            _ = buffer.initialize(from: kept)
            while count < capacity, !ended {
                do throws(DecodingProblem) {
                    let received = try rest.chunks.read(into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
                    count += received
                    ended = received == 0
                } catch {
                    failure = error.message
                    ended = true
                }
            }
        }
        atEndOfInput = ended
        readFailure = readFailure ?? failure
    }

    /// As the whole file's reader reports it: after the last item, at the line the input stopped on.
    private mutating func reportReadFailure() -> [PostFileEvent]? {
        guard let failure = readFailure else { return nil }
        readFailure = nil
        let problem = DecodingProblem(
            file: name, line: rest.line, message: "the file could not be read to its end: \(failure)")
        return [.malformed(problem)]
    }

    /// Just past the first newline at or after `offset` and before `end`.
    private static func lineEnd(in bytes: [UInt8], from offset: Int, to end: Int? = nil) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            memchr(buffer.baseAddress! + offset, 0x0A, (end ?? buffer.count) - offset).map {
                UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - buffer.baseAddress! + 1
            }
        }
    }

    /// Just past the last newline: looked for with `memchr` a block at a time from the end, as a piece's last line
    /// may be long (a page of a few hundred kilobytes).
    private static func lastLineEnd(in bytes: [UInt8]) -> Int? {
        var blockEnd = bytes.count
        while blockEnd > 0 {
            let blockStart = max(0, blockEnd - 4096)
            var end: Int?
            while let next = lineEnd(in: bytes, from: end ?? blockStart, to: blockEnd) { end = next }
            if let end { return end }
            blockEnd = blockStart
        }
        return nil
    }
}

/// Whole lines of the file, decoded on a thread of its own.
private final class Piece: Sendable {
    let lines: [UInt8]
    /// Where the piece starts, to read it again.
    let rest: JSONLinesRest
    let isLast: Bool
    private let decoded = Mutex<DecodedPiece?>(nil)
    private let done = Semaphore()

    init(lines: [UInt8], rest: JSONLinesRest, isLast: Bool) {
        self.lines = lines
        self.rest = rest
        self.isLast = isLast
    }

    func start<Decoder: ItemDecoder>(name: String, decoder: Decoder, writing: PostLineWriting?) {
        OwnThread.detach { [self] in
            let items = JSONItemReader(jsonLines: lines, firstLine: rest.line, ignoring: rest.ignoredKeys)
            var reader = PostItemReader(name: name, items: items, decoder: decoder, writing: writing)
            var events: [PostFileEvent] = []
            while let event = reader.next() { events.append(event) }
            let piece = DecodedPiece(events: events, hasMalformedItem: reader.hasMalformedItem)
            decoded.withLock { $0 = piece }
            done.signal()
        }
    }

    func wait() -> DecodedPiece {
        done.wait()
        return decoded.withLock { $0! }
    }
}

private struct DecodedPiece: Sendable {
    let events: [PostFileEvent]
    /// An item the JSON reader could not read (not one the decoder could not use).
    let hasMalformedItem: Bool
}

/// A count of signals, waited for (POSIX's). The pieces run on threads of their own, not Dispatch's or Swift
/// concurrency's pools, whose threads the caller may be blocking while it waits.
private final class Semaphore: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() { sem_init(semaphore, 0, 0) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func signal() { sem_post(semaphore) }

    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}

/// A thread of its own for a piece of work, ending with it.
private enum OwnThread {
    static func detach(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Work(work)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { argument in
                let box: UnsafeMutableRawPointer? = argument
                Unmanaged<Work>.fromOpaque(box!).takeRetainedValue().run()
                return nil
            }, box)
        if started != 0 { Unmanaged<Work>.fromOpaque(box).takeRetainedValue().run() }
    }

    private final class Work: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
