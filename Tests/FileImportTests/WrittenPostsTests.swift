import Foundation
import Testing
import WireJSON

@testable import FileImport
@testable import Posts

/// A reader asked to write its posts (`PostLineWriting`, what `inspect --format json` asks) writes them where they are
/// decoded, in parallel pieces: the same bytes as the posts written one by one after a plain reading, and every problem
/// and note in the same place among them — broken lines at the pieces' edges too.
struct WrittenPostsTests {
    static let writing = PostLineWriting { post, json in
        json.writePublic(post, times: .wholeSeconds)
        json.newLine()
    }

    /// A v1.1 status about 1 KB long, its text in another script as `\u` escapes (as twarc writes it).
    static func status(_ number: Int) -> String {
        #"""
        {"id_str": "\#(2000 + number)", "created_at": "Wed Oct 10 20:19:24 +0000 2018", "full_text": \#
        "hello #t \u6771\u4eac \ud83d\ude00 \#(number)", "user": {"screen_name": "a", "name": "A"}, "entities": \#
        {"hashtags": [{"text": "t", "indices": [6, 8]}]}, "padding": "\#(String(repeating: "p", count: 850))"}
        """#
    }

    /// Three pieces' worth of lines, with a value running across a piece's edge, a string never closed, prose between
    /// documents, a lone surrogate (mended, noted) and a broken last line.
    static func file() -> [UInt8] {
        let pieceSize = JSONLinesInParallel<AnyNetworkDecoder>.pieceSize
        var text = ""
        var number = 0
        func fill(upTo end: Int) {
            while text.utf8.count < end {
                text += status(number) + "\n"
                number += 1
            }
        }
        fill(upTo: pieceSize - 500)
        text += #"{"id_str": "77", "full_text": "runs on", "padding": "\#(String(repeating: "y", count: 800))","# + "\n"
        text += #""user": {"screen_name": "a"}}"# + "\n"
        fill(upTo: 2 * pieceSize - 500)
        text += #"{"id_str": "78", "full_text": "never closed \#(String(repeating: "z", count: 800))"# + "\n"
        text += "a line of prose between the documents\n"
        text += status(99_999).replacingOccurrences(of: #"\ud83d\ude00"#, with: #"\ud800"#) + "\n"
        fill(upTo: 3 * pieceSize + 5000)
        text += "{broken at the end"
        return Array(text.utf8)
    }

    @Test func writtenWhereDecodedTheyAreThePostsWrittenOneByOneWithEveryProblemInPlace() throws {
        let path = NSTemporaryDirectory() + "written-\(UUID().uuidString).jsonl"
        try Data(Self.file()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let written = Self.read(try PostFileReader(path: path, writing: Self.writing))
        let plain = Self.read(try PostFileReader(path: path))
        #expect(written.events.filter { $0.hasPrefix("posts") }.count >= 4, "posts in several runs")
        #expect(written.events.filter { !$0.hasPrefix("posts") }.count >= 5)
        #expect(written.events == plain.events)
        #expect(written.bytes == plain.bytes)
        #expect(String(decoding: written.bytes.prefix(200), as: UTF8.self).contains("東京 😀"))
    }

    /// The events with each run of posts as "posts N", and every post's line; posts given as posts are written here.
    private static func read(_ reader: PostFileReader) -> (events: [String], bytes: [UInt8]) {
        var events: [String] = []
        var bytes: [UInt8] = []
        var json = JSONWriter()
        var run = 0
        func endRun() {
            if run > 0 { events.append("posts \(run)") }
            run = 0
        }
        for event in reader {
            switch event {
            case .post(let post):
                writing.write(post, into: &json)
                bytes += json.take()
                run += 1
            case .written(let posts):
                bytes += posts.bytes
                run += posts.count
            case .malformed(let problem):
                endRun()
                events.append("malformed \(problem)")
            case .note(let note):
                endRun()
                events.append("note \(note)")
            }
        }
        endRun()
        return (events, bytes)
    }
}
