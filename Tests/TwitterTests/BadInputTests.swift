import Testing

@testable import Posts
@testable import Twitter
@testable import WireJSON

/// Issue 12: input that used to be lost or accepted without a word. Each bad line is named by its own number, and
/// every good tweet around it comes through.
@Suite struct BadInputTests {
    /// A v1.1 status on one line: `#t` at 6..<8 of "hello #t".
    static func status(_ id: String, text: String = "hello #t", idJSON: String? = nil) -> String {
        let idMember = idJSON.map { "\"id\": \($0)" } ?? "\"id_str\": \"\(id)\""
        return
            #"""
            {\#(idMember), "created_at": "Wed Oct 10 20:19:24 +0000 2018", "full_text": "\#(text)", "user": \#
            {"screen_name": "a", "name": "A"}, "entities": {"hashtags": [{"text": "t", "indices": [6, 8]}]}}
            """#
    }

    static func read(_ lines: [String]) -> (ids: [String], malformed: [DecodingProblem], notes: [DecodingProblem]) {
        read(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    static func read(bytes: [UInt8]) -> (ids: [String], malformed: [DecodingProblem], notes: [DecodingProblem]) {
        var reader = TweetFileReader(bytes: bytes, name: "f.jsonl")
        var result: (ids: [String], malformed: [DecodingProblem], notes: [DecodingProblem]) = ([], [], [])
        while let event = reader.next() {
            switch event {
            case .post(let tweet): result.ids.append(tweet.id)
            case .malformed(let problem): result.malformed.append(problem)
            case .note(let note): result.notes.append(note)
            case .written: Issue.record("a reader not asked to write its posts gave them written")
            }
        }
        return result
    }

    @Test func readingGoesOnPastAnyNumberOfBrokenLines() {
        let lines = (1...25).map { "{broken \($0)" } + (1...100).map { Self.status(String(1000 + $0)) }
        let read = Self.read(lines)
        #expect(read.ids == (1...100).map { String(1000 + $0) })
        #expect(read.malformed.map(\.line) == Array(1...25))
    }

    @Test(arguments: [1, 2, 4])
    func aLineHoldingOnlyABracketIsOneBadLine(at line: Int) {
        var lines = (1...4).map { Self.status(String($0)) }
        lines.insert("[", at: line - 1)
        let read = Self.read(lines)
        #expect(read.ids == ["1", "2", "3", "4"])
        #expect(read.malformed.map(\.line) == [line])
    }

    @Test func aBrokenLineAfterAStrayBracketIsNamedToo() {
        let read = Self.read([Self.status("1"), "[", "{broken", Self.status("2")])
        #expect(read.ids == ["1", "2"])
        #expect(read.malformed.map(\.line) == [2, 3])
    }

    @Test func aTopLevelArrayStillReadsElementByElement() {
        let read = Self.read(["[", Self.status("1") + ",", Self.status("2"), "]", Self.status("3")])
        #expect(read.ids == ["1", "2", "3"])
        #expect(read.malformed.isEmpty)
    }

    @Test func invalidUTF8IsReadAsReplacementWithANote() {
        var bytes = Array((Self.status("1") + "\n").utf8)
        bytes += Array(Self.status("2", text: "hello #t X").utf8).map { $0 == UInt8(ascii: "X") ? 0xE9 : $0 } + [0x0A]
        bytes += Array((Self.status("3") + "\n").utf8)
        let read = Self.read(bytes: bytes)
        #expect(read.ids == ["1", "2", "3"])
        #expect(read.malformed.isEmpty)
        #expect(read.notes.map(\.line) == [2])
        #expect(read.notes.first?.message.contains("not UTF-8") == true)
    }

    @Test(arguments: [#"\ud800"#, #"\udc00"#, #"\ud800\u0041"#])
    func aLoneSurrogateIsReadAsReplacementWithANote(escape: String) {
        let read = Self.read([Self.status("1"), Self.status("2", text: "hello #t \(escape)"), Self.status("3")])
        #expect(read.ids == ["1", "2", "3"])
        #expect(read.notes.map(\.line) == [2])
        #expect(read.notes.first?.message.contains("surrogate") == true)
    }

    @Test func aPairedSurrogateNeedsNoNote() {
        let read = Self.read([Self.status("1", text: #"hello #t \ud83d\ude00"#)])
        #expect(read.ids == ["1"] && read.notes.isEmpty)
    }

    @Test(arguments: ["[", "{\"a\":"])
    func deepNestingIsABadLineNotACrash(opening: String) {
        let deep =
            String(repeating: opening, count: 10_000) + "1"
            + String(repeating: opening == "[" ? "]" : "}", count: 10_000)
        let read = Self.read([Self.status("1"), deep, Self.status("2")])
        #expect(read.ids == ["1", "2"])
        #expect(read.malformed.map(\.line) == [2])
        #expect(read.malformed.first?.message.contains("512") == true)
    }

    @Test func nestingUpToTheLimitIsRead() {
        let nested = String(repeating: "[", count: 511) + "1" + String(repeating: "]", count: 511)
        let read = Self.read([#"{"statuses": [], "deep": \#(nested)}"#])
        #expect(read.malformed.isEmpty)
    }

    @Test(arguments: [
        (#""abc""#, "abc"), (#""1.5""#, "1.5"), (#""-5""#, "-5"), ("18446744073709551616", "18446744073709551616"),
        (#""0""#, "0"), (#""007""#, "007"), ("1.5", "1.5"), ("-5", "-5"),
        ("9223372036854775808", "9223372036854775808"),
    ])
    func anIdThatIsNotATweetIdIsABadLine(json: String, shown: String) {
        let read = Self.read([Self.status("1"), Self.status("", idJSON: json), Self.status("9223372036854775807")])
        #expect(read.ids == ["1", "9223372036854775807"])
        #expect(read.malformed.map(\.line) == [2])
        #expect(
            read.malformed.first?.message
                == "the tweet id “\(shown)” is not a whole number from 1 to 9223372036854775807")
    }

    @Test func aLongIdIsCutInTheMessage() {
        let read = Self.read([Self.status(String(repeating: "9", count: 400))])
        let message = try? #require(read.malformed.first?.message)
        #expect(
            message
                == """
                the tweet id “\(String(repeating: "9", count: 40))…” is not a whole number from 1 to \
                9223372036854775807
                """
        )
    }

    @Test(.timeLimit(.minutes(1)))
    func thousandsOfMisplacedEntitiesInAHugeTextAreFoundAgainQuickly() throws {
        var text = ""
        var hashtags: [String] = []
        for index in 0..<2_000 {
            text += String(repeating: "lorem ipsum dolor sit amet ", count: 55)
            let start = text.unicodeScalars.count
            hashtags.append(
                #"{"text": "tag\#(index)", "indices": [\#(start + 3), \#(start + 3 + "#tag\(index)".count)]}"#)
            text += "#tag\(index) "
        }
        let line =
            #"""
            {"id_str": "1", "created_at": "Wed Oct 10 20:19:24 +0000 2018", "full_text": "\#(text)", "user": \#
            {"screen_name": "a"}, "entities": {"hashtags": [\#(hashtags.joined(separator: ","))]}}
            """#
        var reader = TweetFileReader(bytes: Array(line.utf8), name: "huge.json")
        guard case .post(let tweet) = reader.next() else {
            Issue.record("no tweet")
            return
        }
        #expect(tweet.mentions.count == 2_000)
        let scalars = Array(tweet.text.unicodeScalars)
        #expect(tweet.mentions.allSatisfy { String(String.UnicodeScalarView(scalars[$0.range])) == $0.keyword })
        #expect(tweet.mentions.map(\.keyword) == (0..<2_000).map { "#tag\($0)" })
    }
}
