import Foundation
import TestSupport
import Testing

@testable import Posts
@testable import Twitter
@testable import WireJSON

/// X's v2 lines read straight from their bytes (`DocumentDecoder.decode(line:)`, on a `JSONTape`) give exactly what
/// the tree gives — the same posts, the same problems and notes — and every line the shortcut declines is read as a
/// tree, so a whole file reads the same either way.
@Suite struct TapeDecodingTests {
    static let decoder = DocumentDecoder(archiveAccount: nil)

    @Test(arguments: SharedFixtures.isPresent ? SharedFixtures.twitterFiles : [])
    func everyLineOfASharedFixtureReadsAsItsTreeReads(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let taken = try Self.compareLines(of: bytes, in: path)
        if path.contains("twarc-csv") && !path.hasSuffix("_compliance.jsonl") && !path.hasSuffix("counts.jsonl") {
            #expect(taken > 0, "no line of \(path) was read from a tape")
        }
    }

    @Test(arguments: SharedFixtures.isPresent ? SharedFixtures.twitterFiles : [])
    func aSharedFixtureReadsAsItsTreeReads(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let withTapes = Array(try TweetFileReader(path: path)).map(Self.describe)
        let items = JSONItemReader(bytes: bytes, ignoring: DocumentDecoder.unreadKeys)
        let account = TwitterArchive.account(of: items, path)
        let treesOnly = PostItemReader(
            name: path, items: items, decoder: TreesOnly(DocumentDecoder(archiveAccount: account)))
        #expect(withTapes == Array(treesOnly).map(Self.describe))
    }

    /// What the tape must decline, or read as the tree does: a tweet a tree finds wanting, repeated names, escapes,
    /// mending, other networks' members at the root, values of the wrong kind, numbers for strings.
    @Test(arguments: [
        (#"{"data": [{"id": "5000000001", "text": "a", "created_at": "2021-10-04T17:00:00.000Z"}]}"#, true),
        (#"{"data": [{"id": "x", "text": "a"}], "errors": [{"detail": "gone", "title": "t"}]}"#, true),
        (#"{"data": [{"id": "5000000001", "text": "a", "created_at": "then"}]}"#, true),
        (#"{"data": {"id": 5000000001, "text": "a &amp; b", "author_id": 7}, "includes": {"users": [7]}}"#, true),
        (#"{"data": [{"id": "1", "text": "a"}, {"name": "u"}], "data": [{"id": "5000000001", "text": "b"}]}"#, true),
        (
            #"{"data": [{"id": "5000000001", "text": "\u00e9 \ud83d\ude00 #t\"", "entities": {"hashtags": "#
                + #"[{"start": 4, "end": 6, "tag": "t"}]}}]}"#, true
        ),
        (#"{"data": [{"id": "5000000001", "text": "lone \ud800"}]}"#, false),
        (#"{"data": [{"id": "5000000001", "te\u0078t": "escaped name"}]}"#, false),
        (#"{"data": [{"id": "5000000001", "text": "a"}], "posts": []}"#, false),
        (#"{"id": "5000000001", "text": "flat", "author": {"id": "7", "username": "u"}, "author_id": "7"}"#, true),
        (#"{"id": "5000000001", "text": "v1.1 shaped, no author"}"#, false),
        (#"{"data": "not a tweet", "includes": []}"#, true),
        (#"{"data": [{"id": "5000000001", "text": 5}]} trailing"#, false),
        (#"{"data": [{"id": "5000000001", "text": "a"}]}  "#, true),
        (#"{"data": [{"id": "5000000001", "text": "a", "possibly_sensitive": fals}]}"#, false),
        (#"{"data": [], "errors": []}"#, true),
        (
            #"{"data": [{"id": "5000000001", "text": "ab #t", "entities": {"hashtags": [{"start": "\u0033", "#
                + #""end": "+5", "tag": "t"}, {"start": 3, "end": 5.0, "tag": "t"}, "#
                + #"{"start": -0, "end": 5, "tag": "t"}]}}]}"#,
            true
        ),
    ])
    func anAwkwardLineReadsAsItsTreeReads(line: String, takesTape: Bool) throws {
        #expect(try Self.compareLines(of: Array(line.utf8), in: line) == (takesTape ? 1 : 0))
    }

    /// Each line through the tape and through a tree; returns how many the tape took.
    private static func compareLines(of bytes: [UInt8], in name: String) throws -> Int {
        var taken = 0
        var start = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            defer { start += line.count + 1 }
            let trimmed = line.drop { JSONParser.isWhitespace($0) }
            guard !trimmed.isEmpty else { continue }
            let fast = Array(trimmed).withUnsafeBufferPointer { decoder.decode(line: $0) }
            guard let fast else { continue }
            taken += 1
            var lineReader = JSONItemReader(bytes: Array(trimmed), ignoring: DocumentDecoder.unreadKeys)
            guard case .item(let item) = lineReader.next() else {
                Issue.record(
                    "\(name): the tape took a line the tree cannot read: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            #expect(item.repairs.isEmpty, "\(name): the tape took a line the tree mends")
            #expect(lineReader.next() == nil, "\(name): the tape took a line with more than one value")
            #expect(fast.map(describe) == decoder.decode(item.value).map(describe), "\(name), byte \(start)")
        }
        return taken
    }

    static func describe(_ outcome: ItemOutcome) -> Seen {
        switch outcome {
        case .post(let post): .post(post)
        case .problem(let message): .problem(message)
        case .skipped(let message): .skipped(message)
        }
    }

    static func describe(_ event: PostFileEvent) -> Seen {
        switch event {
        case .post(let post): .post(post)
        case .malformed(let problem): .malformed(problem)
        case .note(let note): .note(note)
        case .written(let posts): .written(posts.count)
        }
    }

    /// An outcome or an event, compared whole.
    enum Seen: Equatable {
        case post(Post)
        case problem(String)
        case skipped(String)
        case malformed(DecodingProblem)
        case note(DecodingProblem)
        case written(Int)
    }
}
