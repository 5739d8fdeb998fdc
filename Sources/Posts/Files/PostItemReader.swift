import WireJSON

/// What reading a file gives, in file order.
public enum PostFileEvent: Sendable {
    case post(Post)
    /// Posts in a row, written as lines where they were decoded: what a reader asked to write them gives instead of
    /// `post` (`PostLineWriting`).
    case written(WrittenPosts)
    /// A line or object that could not be read; the reader goes on where it can.
    case malformed(DecodingProblem)
    /// Something to know that is not an error: recognised data that holds no posts (an API error body, users,
    /// counts…), or text that had to be mended to be read (invalid UTF-8, lone surrogates).
    case note(DecodingProblem)
}

/// Posts written as lines, in file order.
public struct WrittenPosts: Sendable {
    package let bytes: [UInt8]
    package let count: Int
}

/// How a reader writes each post it decodes, on the thread that decoded it, when the caller only writes them out
/// (`inspect --format json`): the posts are then written beside the decoding, on every core, rather than one by one
/// on the thread that takes them, and freed where they were made.
package struct PostLineWriting: Sendable {
    private let write: @Sendable (Post, inout JSONWriter) -> Void

    package init(_ write: @escaping @Sendable (Post, inout JSONWriter) -> Void) {
        self.write = write
    }

    package func write(_ post: Post, into json: inout JSONWriter) {
        write(post, &json)
    }

    /// The events with each run of posts written as one `written` event; problems and notes stay where they were.
    func folding(_ events: [PostFileEvent]) -> [PostFileEvent] {
        var folded: [PostFileEvent] = []
        var lines = JSONWriter()
        var count = 0
        func endRun() {
            guard count > 0 else { return }
            folded.append(.written(WrittenPosts(bytes: lines.take(), count: count)))
            count = 0
        }
        for event in events {
            guard case .post(let post) = event else {
                endRun()
                folded.append(event)
                continue
            }
            write(post, &lines)
            count += 1
        }
        endRun()
        return folded
    }
}

/// What one JSON item of a file gave a format's decoder.
package enum ItemOutcome: Sendable {
    case post(Post)
    /// Post-shaped but unreadable, or not any format Smashtag knows: reported as malformed.
    case problem(String)
    /// Known data that holds no posts (an error body, users, stream control messages): a note.
    case skipped(String)

    package var isPost: Bool {
        if case .post = self { true } else { false }
    }
}

/// Turns one JSON item (a document, a line, an element of a top-level array) into what it holds.
package protocol ItemDecoder: Sendable {
    func decode(_ item: JSONValue) -> [ItemOutcome]

    /// One line of JSON Lines decoded straight from its bytes (from its first byte that is not a space to its end),
    /// or nil when the decoder has no shortcut for it: the line is then read as a tree and given to `decode(_:)`.
    /// What it gives must be what `decode(_:)` gives for the line, and it must decline any line that is not one
    /// value read without a syntax error or a repair.
    func decode(line: UnsafeBufferPointer<UInt8>) -> [ItemOutcome]?
}

extension ItemDecoder {
    package func decode(line: UnsafeBufferPointer<UInt8>) -> [ItemOutcome]? { nil }
}

/// The events of a file: its JSON items (`JSONItemReader`) through a format's decoder, each problem and note with the
/// file's name and the item's line. What X's reader and the import's reader of every network share.
///
/// A file that its first item shows to be JSON Lines is read on from there in parallel (`JSONLinesInParallel`),
/// with the same events in the same order.
package struct PostItemReader<Decoder: ItemDecoder>: Sequence, IteratorProtocol, Sendable {
    package let name: String
    private var items: JSONItemReader
    private let decoder: Decoder
    private var pending: [PostFileEvent] = []
    private var inParallel: JSONLinesInParallel<Decoder>?
    /// Whether the JSON reader found an item it could not read (not one the decoder could not use).
    private(set) var hasMalformedItem = false
    private let writing: PostLineWriting?

    /// `writing`: posts come as `written` lines, not as `post`s.
    package init(name: String, items: JSONItemReader, decoder: Decoder, writing: PostLineWriting? = nil) {
        self.name = name
        self.items = items
        self.decoder = decoder
        self.writing = writing
    }

    package mutating func next() -> PostFileEvent? {
        while pending.isEmpty {
            if inParallel != nil {
                // Written on the pieces' threads already, when asked.
                guard let events = inParallel?.next() else { return nil }
                pending = events.reversed()
                continue
            }
            guard let events = nextEvents() else { return nil }
            pending = (writing?.folding(events) ?? events).reversed()
        }
        return pending.removeLast()
    }

    /// The next item's events, read here; nil at the end.
    private mutating func nextEvents() -> [PostFileEvent]? {
        let decoder = self.decoder
        if let (outcomes, offset) = items.nextLine({ decoder.decode(line: $0) }) {
            let line = outcomes.allSatisfy(\.isPost) ? 0 : items.line(at: offset)
            return outcomes.map { event($0, line: line) }
        }
        guard let result = items.next() else { return nil }
        switch result {
        case .item(let item):
            let outcomes = decoder.decode(item.value)
            // Lines are counted only when something will be reported: most items are read without one.
            let line = outcomes.allSatisfy(\.isPost) && item.repairs.isEmpty ? 0 : items.line(at: item.offset)
            if let rest = items.handOffJSONLines() {
                inParallel = JSONLinesInParallel(name: name, rest: rest, decoder: decoder, writing: writing)
            }
            return outcomes.map { event($0, line: line) } + repairNotes(item.repairs, line: line)
        case .malformed(let line, let message):
            hasMalformedItem = true
            return [.malformed(DecodingProblem(file: name, line: line, message: message))]
        case .textLine(let line):
            return [.note(DecodingProblem(file: name, line: line, message: "a line of text between JSON documents"))]
        }
    }

    private func event(_ outcome: ItemOutcome, line: Int) -> PostFileEvent {
        switch outcome {
        case .post(let post): .post(post)
        case .problem(let message): .malformed(DecodingProblem(file: name, line: line, message: message))
        case .skipped(let message): .note(DecodingProblem(file: name, line: line, message: message))
        }
    }

    private func repairNotes(_ repairs: TextRepairs, line: Int) -> [PostFileEvent] {
        var notes: [String] = []
        if repairs.contains(.invalidUTF8) { notes.append("bytes that are not UTF-8 were read as U+FFFD (�)") }
        if repairs.contains(.loneSurrogate) {
            notes.append("a \\u escape of half a surrogate pair was read as U+FFFD (�)")
        }
        return notes.map { .note(DecodingProblem(file: name, line: line, message: $0)) }
    }
}
