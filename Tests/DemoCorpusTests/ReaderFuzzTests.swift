import Foundation
import Posts
import TestSupport
import Testing
import WireJSON

@testable import DemoCorpus
@testable import Twitter

/// Issue 12's fuzz run: real lines (the demo's tweets as twarc2 X API v2 pages) with mutated copies between them.
/// Every tweet of every good line must come through; every mutated line that is not JSON — by Foundation's parser,
/// an oracle independent of ours — must be named by its own line number; no good line is ever blamed.
/// `SMASHTAG_FUZZ_LINES` and `SMASHTAG_FUZZ_SEED` set the number of good lines and the seed (a larger run:
/// docs/PERFORMANCE.md, "Reliability").
@Suite struct ReaderFuzzTests {
    static let goodLines = ProcessInfo.processInfo.environment["SMASHTAG_FUZZ_LINES"].flatMap(Int.init) ?? 300
    static let seed = ProcessInfo.processInfo.environment["SMASHTAG_FUZZ_SEED"].flatMap(UInt64.init) ?? 12
    static let tweetsPerLine = 5

    @Test func mutatedLinesBetweenGoodOnesLoseNothingAndAreAllNamed() throws {
        var random = SeededRandom(seed: Self.seed)
        let tweets = Array(
            DemoGenerator(seed: Self.seed, count: Self.goodLines * Self.tweetsPerLine, end: DemoSample.end))
        var file = FuzzFile()
        for start in stride(from: 0, to: tweets.count, by: Self.tweetsPerLine) {
            let good = TwarcWriter().line(for: tweets[start..<start + Self.tweetsPerLine])
            file.add(good, mutated: false)
            for _ in 0..<random.int(in: 0...2) {
                file.add(Mutation.random(using: &random).apply(to: good, using: &random), mutated: true)
            }
        }
        let first = TwarcWriter().line(for: tweets[0..<Self.tweetsPerLine]).dropLast()
        let taken = Array(first).withUnsafeBufferPointer { DocumentDecoder(archiveAccount: nil).decode(line: $0) }
        #expect(taken != nil, "a good line is not read straight from its bytes")
        let read = file.read()
        #expect(read.events == file.readAsTrees(), "the lines read from tapes read otherwise than as trees")
        let missing = Set(tweets.map(\.id)).subtracting(read.ids)
        #expect(missing.isEmpty, "\(missing.count) good tweets lost, e.g. \(missing.sorted().prefix(3))")
        #expect(
            read.namedLines.isSubset(of: file.mutatedLines),
            "a good line was blamed: \(read.namedLines.subtracting(file.mutatedLines).sorted().prefix(5))")
        let unnamed = file.invalidLines.subtracting(read.namedLines)
        #expect(unnamed.isEmpty, "bad lines not named: \(unnamed.sorted().prefix(3).map(file.describe))")
        print(
            """
            fuzz: \(Self.goodLines) good lines, \(file.mutatedLines.count) mutated (\(file.invalidLines.count) not \
            JSON), seed \(Self.seed)
            """
        )
        let calledMalformed = read.syntaxErrorLines.intersection(file.mutatedLines.subtracting(file.invalidLines))
        #expect(
            calledMalformed.allSatisfy(file.hasTrailingComma),
            "valid JSON called malformed: \(calledMalformed.sorted().prefix(3).map(file.describe))")
    }
}

/// A file being built: its lines, which were mutated, and which of those Foundation cannot parse.
private struct FuzzFile {
    private(set) var bytes: [UInt8] = []
    private var lines: [[UInt8]] = []
    private(set) var mutatedLines: Set<Int> = []
    private(set) var invalidLines: Set<Int> = []
    private var count = 0

    mutating func add(_ line: [UInt8], mutated: Bool) {
        count += 1
        lines.append(line)
        bytes += line.last == 0x0A ? line : line + [0x0A]
        guard mutated else { return }
        mutatedLines.insert(count)
        if (try? JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed])) == nil {
            invalidLines.insert(count)
        }
    }

    /// Foundation on Linux reads `[1,]` and `{"a":1,}`; RFC 8259 and Smashtag do not.
    func hasTrailingComma(_ number: Int) -> Bool {
        let line = lines[number - 1].filter { $0 != 0x20 }
        return zip(line, line.dropFirst()).contains {
            $0 == UInt8(ascii: ",") && ($1 == UInt8(ascii: "]") || $1 == UInt8(ascii: "}"))
        }
    }

    /// A line by number, its start and end, for a failure message.
    func describe(_ number: Int) -> String {
        if let dump = ProcessInfo.processInfo.environment["SMASHTAG_FUZZ_DUMP"] {
            FileManager.default.createFile(atPath: "\(dump)/line-\(number).json", contents: Data(lines[number - 1]))
        }
        let line = String(decoding: lines[number - 1], as: UTF8.self)
        return "\(number): \(line.prefix(60))…\(line.suffix(60))"
    }

    func read() -> (ids: [String], namedLines: Set<Int>, syntaxErrorLines: Set<Int>, events: [String]) {
        var reader = TweetFileReader(bytes: bytes, name: "fuzz.jsonl")
        var result: (ids: [String], namedLines: Set<Int>, syntaxErrorLines: Set<Int>, events: [String]) = (
            [], [], [], []
        )
        while let event = reader.next() {
            result.events.append(Self.describe(event))
            switch event {
            case .post(let tweet): result.ids.append(tweet.id)
            case .malformed(let problem), .note(let problem):
                guard let line = problem.line else { continue }
                result.namedLines.insert(line)
                if problem.message.hasPrefix("malformed JSON") { result.syntaxErrorLines.insert(line) }
            case .written: Issue.record("a reader not asked to write its posts gave them written")
            }
        }
        return result
    }

    /// The same file with every line read as a tree (no line read straight from its bytes): the reference.
    func readAsTrees() -> [String] {
        let items = JSONItemReader(bytes: bytes, ignoring: DocumentDecoder.unreadKeys)
        let reader = PostItemReader(
            name: "fuzz.jsonl", items: items, decoder: TreesOnly(DocumentDecoder(archiveAccount: nil)))
        return reader.map(Self.describe)
    }

    private static func describe(_ event: PostFileEvent) -> String {
        switch event {
        case .post(let post): "post \(post)"
        case .malformed(let problem): "malformed \(problem)"
        case .note(let note): "note \(note)"
        case .written(let posts): "written \(posts.count)"
        }
    }
}

/// X's decoder without its shortcut.
/// Ways a real line goes wrong: cut short, a byte lost, added or changed, two pieces spliced, a stray bracket,
/// nesting past the limit, bytes that are not UTF-8, half a surrogate pair. None adds a line break.
private enum Mutation: CaseIterable {
    case truncate, delete, insert, replace, splice, strayBracket, deepNesting, invalidUTF8, loneSurrogate

    static func random(using random: inout SeededRandom) -> Mutation { random.element(of: allCases) }

    private static let insertable: [UInt8] =
        Array("{}[]\":,\\0123456789eE.tfn ".utf8) + [0x00, 0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]

    func apply(to good: [UInt8], using random: inout SeededRandom) -> [UInt8] {
        let line = Array(good.dropLast())
        let at = random.below(line.count)
        switch self {
        case .truncate: return Array(line[..<max(1, at)])
        case .delete: return Array(line[..<at] + line[(at + 1)...])
        case .insert: return Array(line[..<at]) + [random.element(of: Self.insertable)] + line[at...]
        case .replace: return Array(line[..<at]) + [random.element(of: Self.insertable)] + line[(at + 1)...]
        case .splice: return Array(line[..<at] + line[random.below(line.count)...])
        case .strayBracket: return Array(random.element(of: ["[", "{", "]", "[[", "{\"data\": ["]).utf8)
        case .deepNesting: return Array(repeating: UInt8(ascii: "["), count: 600) + line
        case .invalidUTF8: return insideAString(line, [0xC3, 0x28], at: at)
        case .loneSurrogate: return insideAString(line, Array(#"\ud800"#.utf8), at: at)
        }
    }

    /// `bytes` just after the first `"text":"` at or after `at` (else the first of all), so they land in a string.
    private func insideAString(_ line: [UInt8], _ bytes: [UInt8], at: Int) -> [UInt8] {
        let marker = Array(#""text":""#.utf8)
        let starts = (0...(line.count - marker.count)).filter { line[$0..<($0 + marker.count)].elementsEqual(marker) }
        guard let start = starts.first(where: { $0 >= at }) ?? starts.first else { return line + bytes }
        var mutated = line
        mutated.insert(contentsOf: bytes, at: start + marker.count)
        return mutated
    }
}
