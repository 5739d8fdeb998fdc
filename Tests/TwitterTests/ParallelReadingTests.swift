import Foundation
import Testing

@testable import Posts
@testable import Twitter
@testable import WireJSON

/// A JSON Lines file is read in parallel pieces of whole lines (`JSONLinesInParallel`): the same events, in the same
/// order, with the same lines, as reading it in one go — broken lines at the pieces' edges too.
@Suite struct ParallelReadingTests {
    /// A v1.1 status padded to about 1 KB with a member no decoder reads.
    static func status(_ number: Int) -> String {
        let padding = String(repeating: "x", count: 900)
        return String(BadInputTests.status(String(1000 + number)).dropLast()) + #", "annotations": "\#(padding)"}"#
    }

    /// Lines around the place a piece ends: the last line of a piece is one whose value runs on into the next.
    static func file() -> [UInt8] {
        let pieceSize = JSONLinesInParallel<DocumentDecoder>.pieceSize
        let first = status(0) + "\n"
        var text = first
        var number = 1
        func fill(upTo end: Int) {
            while text.utf8.count < end {
                text += status(number) + "\n"
                number += 1
            }
        }
        // A value starting on a piece's last line and ending on the next piece's first.
        fill(upTo: first.utf8.count + pieceSize - 600)
        text += #"{"id_str": "77", "full_text": "runs on", "padding": "\#(String(repeating: "y", count: 800))","# + "\n"
        text += #""user": {"screen_name": "a"}}"# + "\n"
        // A string never closed on a piece's last line, and what the file's readers mend and note.
        fill(upTo: first.utf8.count + 2 * pieceSize - 600)
        text += #"{"id_str": "78", "full_text": "never closed \#(String(repeating: "z", count: 800))"# + "\n"
        text += "a line of prose between the documents\n"
        text += BadInputTests.status("79", text: #"lone \ud800 #t"#) + "\n"
        fill(upTo: first.utf8.count + 3 * pieceSize + 5000)
        text += "{broken at the end"
        return Array(text.utf8)
    }

    @Test func aFileReadInPiecesGivesWhatOneReadingGives() throws {
        let bytes = Self.file()
        let path = NSTemporaryDirectory() + "parallel-\(UUID().uuidString).jsonl"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let inPieces = Array(try TweetFileReader(path: path)).map(Self.describe)
        let inOneGo = Array(TweetFileReader(bytes: bytes, name: path)).map(Self.describe)
        #expect(inPieces.count > 2500)
        #expect(inPieces.filter { !$0.hasPrefix("post") }.count >= 5)
        #expect(inPieces == inOneGo)
    }

    /// A pipe cannot be read again at an offset: its lines are read by the one reader, every problem with its line.
    @Test func aPipeIsReadInOneGo() throws {
        let bytes = Self.file()
        let path = NSTemporaryDirectory() + "parallel-\(UUID().uuidString).fifo"
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.write(Data(bytes))
                try? handle.close()
            }
        }
        writer.start()

        let fromPipe = Array(try TweetFileReader(path: path)).map(Self.describe)
        let inOneGo = Array(TweetFileReader(bytes: bytes, name: path)).map(Self.describe)
        #expect(fromPipe == inOneGo)
    }

    private static func describe(_ event: PostFileEvent) -> String {
        switch event {
        case .post(let post): "post \(post.id) \(post.text) \(post.mentions.map(\.range))"
        case .malformed(let problem): "malformed \(problem)"
        case .note(let note): "note \(note)"
        case .written(let posts): "written \(posts.count)"
        }
    }
}
