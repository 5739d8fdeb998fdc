import Testing

@testable import WireJSON

struct JSONReaderTests {
    private func items(_ text: String) -> [JSONItemResult] {
        var reader = JSONItemReader(bytes: Array(text.utf8))
        return Array(AnyIterator { reader.next() })
    }

    /// Each result as `kind@line`.
    private func lines(_ text: String) -> [String] {
        var reader = JSONItemReader(bytes: Array(text.utf8))
        var lines: [String] = []
        while let result = reader.next() {
            switch result {
            case .item(let item): lines.append("item@\(reader.line(at: item.offset))")
            case .malformed(let line, _): lines.append("malformed@\(line)")
            case .textLine(let line): lines.append("text@\(line)")
            }
        }
        return lines
    }

    @Test func readsJSONLinesWithTheLineOfEachItem() {
        #expect(lines("{\"a\":1}\n{\"b\":2}\n\n{\"c\":3}\n") == ["item@1", "item@2", "item@4"])
    }

    @Test func readsPrettyPrintedValuesBackToBack() {
        #expect(lines("{\n \"a\": 1\n}\n{\n \"b\": [1, 2]\n}") == ["item@1", "item@4"])
    }

    @Test func aTopLevelArrayGivesOneItemPerElement() {
        #expect(lines("[\n {\"a\":1},\n {\"b\":2}\n]\n") == ["item@2", "item@3"])
    }

    @Test func anArchivePrefixIsSkipped() {
        var reader = JSONItemReader(bytes: Array("window.YTD.tweets.part0 = [ {\"tweet\": {}} ]".utf8))
        #expect(reader.isArchive)
        guard case .item(let item) = reader.next() else {
            Issue.record("no item")
            return
        }
        #expect(item.value["tweet"] != nil)
        #expect(reader.next() == nil)
    }

    @Test func aBrokenLineIsReportedAndTheNextLinesStillRead() {
        let text = "{\"a\":1}\n{\"b\": \"trunc\n{\"c\":3}\n"
        let results = items(text)
        #expect(lines(text) == ["item@1", "malformed@2", "item@3"])
        guard case .malformed(_, let message) = results[1] else { return }
        #expect(message.contains("column 13"))
    }

    @Test func notJSONAtAllIsReadToTheEndAndEveryLineNamed() {
        let read = lines("id,text\n1,hello\n2,world\n")
        #expect(["malformed@1", "malformed@2", "malformed@3"].allSatisfy(read.contains), "\(read)")
    }

    @Test func aLeadingZeroIsNotJSON() {
        #expect(
            lines("{\"a\":07}\n{\"a\":0}\n{\"a\":-0.5}\n{\"a\":-01}\n{\"a\":0e3}\n") == [
                "malformed@1", "item@2", "item@3", "malformed@4", "item@5",
            ])
    }

    @Test func inJSONLinesAValueRunningOverSeveralLinesIsBrokenLines() {
        #expect(
            lines("{\"a\":1}\n[\n{\"b\":2}\n]\n{\"c\":3}\n") == [
                "item@1", "malformed@2", "item@3", "malformed@4", "item@5",
            ])
    }

    @Test func documentsBackToBackMayRunOverLines() {
        #expect(lines("{\"a\":1}{\n\"b\": 2\n}\n{\n\"c\": 3}") == ["item@1", "item@1", "item@4"])
    }

    @Test func aLineOfProseBetweenDocumentsIsTextNotAnError() {
        #expect(lines("{\"a\":1}\nClassic Post, extended mode\n{\"b\":2}") == ["item@1", "text@2", "item@3"])
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        let results = items(#"{"s": "a\"b\\c\/d\n\u00e9\ud83c\udde9\ud83c\uddff\u20ac"}"#)
        guard case .item(let item) = results.first else {
            Issue.record("no item")
            return
        }
        #expect(item.value["s"]?.string == "a\"b\\c/d\né🇩🇿€")
    }

    @Test func numbersKeepTheirLiteralSoBigIdsSurvive() {
        guard case .item(let item) = items(#"{"id": 1149825924029980674, "r": -1.5e3, "s": "42"}"#).first else {
            return
        }
        #expect(item.value["id"]?.string == "1149825924029980674")
        #expect(item.value["r"]?.double == -1500)
        #expect(item.value["s"]?.int == 42)
    }

    @Test(arguments: ["{\"a\" 1}", "[1 2]", "{\"a\": tru}", "{\"a\": 01x}", "{\"a\": \"\\x\"}", "{\"a\": 1,}"])
    func malformedInputIsAnError(_ text: String) {
        #expect(lines(text) == ["malformed@1"])
    }
}

/// The input in chunks of a few bytes, so every item straddles chunk boundaries.
private struct TinyChunks: ByteChunks {
    var rest: ArraySlice<UInt8>
    let size: Int

    mutating func read(appendingTo bytes: inout [UInt8]) throws(DecodingProblem) -> Bool {
        guard !rest.isEmpty else { return false }
        bytes += rest.prefix(size)
        rest = rest.dropFirst(size)
        return true
    }
}

struct ChunkedReadingTests {
    /// Each result as `kind@line`, plus the item's value text when it is an item.
    private func results(_ text: String, chunk: Int) -> [String] {
        var reader =
            chunk == 0
            ? JSONItemReader(bytes: Array(text.utf8))
            : JSONItemReader(chunks: TinyChunks(rest: ArraySlice(text.utf8), size: chunk))
        var results: [String] = []
        while let result = reader.next() {
            switch result {
            case .item(let item): results.append("item@\(reader.line(at: item.offset)):\(item.value)")
            case .malformed(let line, let message): results.append("malformed@\(line):\(message)")
            case .textLine(let line): results.append("text@\(line)")
            }
        }
        return results
    }

    static let inputs = [
        "{\"a\":1}\n{\"b\": \"trunc\n{\"c\":[1,2,3]}\n",
        "window.YTD.tweets.part0 = [\n {\"tweet\": {\"id\": \"1\"}},\n {\"tweet\": {\"id\": \"2\"}}\n]",
        "{\"a\":1}\nClassic Post, extended mode\n{\"b\":2}\n12345\ntrue\n{\"c\":\"é😀\"}",
        "[\n {\"a\":1},\n {\"b\":2}\n]\n[{\"c\":3}]",
        "{\"a\":1}\n{\"b\":2}\n{\"c\":",
    ]

    @Test(arguments: inputs, [1, 2, 3, 7, 64])
    func chunkedInputReadsExactlyLikeWholeInput(text: String, chunk: Int) {
        #expect(results(text, chunk: chunk) == results(text, chunk: 0))
    }
}
