import WireJSON

/// What reading a file gives, in file order.
public enum PostFileEvent: Sendable {
    case post(Post)
    /// A line or object that could not be read; the reader goes on where it can.
    case malformed(DecodingProblem)
    /// Something to know that is not an error: recognised data that holds no posts (an API error body, users,
    /// counts…), or text that had to be mended to be read (invalid UTF-8, lone surrogates).
    case note(DecodingProblem)
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

    package init(name: String, items: JSONItemReader, decoder: Decoder) {
        self.name = name
        self.items = items
        self.decoder = decoder
    }

    package mutating func next() -> PostFileEvent? {
        while pending.isEmpty {
            if inParallel != nil {
                guard let events = inParallel?.next() else { return nil }
                pending = events.reversed()
                continue
            }
            let decoder = self.decoder
            if let (outcomes, offset) = items.nextLine({ decoder.decode(line: $0) }) {
                let line = outcomes.allSatisfy(\.isPost) ? 0 : items.line(at: offset)
                pending = outcomes.map { event($0, line: line) }.reversed()
                continue
            }
            guard let result = items.next() else { return nil }
            switch result {
            case .item(let item):
                let outcomes = decoder.decode(item.value)
                // Lines are counted only when something will be reported: most items are read without one.
                let line = outcomes.allSatisfy(\.isPost) && item.repairs.isEmpty ? 0 : items.line(at: item.offset)
                pending = (outcomes.map { event($0, line: line) } + repairNotes(item.repairs, line: line)).reversed()
                if let rest = items.handOffJSONLines() {
                    inParallel = JSONLinesInParallel(name: name, rest: rest, decoder: decoder)
                }
            case .malformed(let line, let message):
                hasMalformedItem = true
                pending = [.malformed(DecodingProblem(file: name, line: line, message: message))]
            case .textLine(let line):
                pending = [
                    .note(DecodingProblem(file: name, line: line, message: "a line of text between JSON documents"))
                ]
            }
        }
        return pending.removeLast()
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
