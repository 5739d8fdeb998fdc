import Testing
@testable import Twitter

struct JSONReaderTests {
    private func items(_ text: String) -> [JSONItemResult] {
        var reader = JSONItemReader(bytes: Array(text.utf8))
        return Array(AnyIterator { reader.next() })
    }

    private func lines(_ results: [JSONItemResult]) -> [String] {
        results.map {
            switch $0 {
            case .item(let item): "item@\(item.line)"
            case .malformed(let line, _): "malformed@\(line)"
            case .textLine(let line): "text@\(line)"
            }
        }
    }

    @Test func readsJSONLinesWithTheLineOfEachItem() {
        #expect(lines(items("{\"a\":1}\n{\"b\":2}\n\n{\"c\":3}\n")) == ["item@1", "item@2", "item@4"])
    }

    @Test func readsPrettyPrintedValuesBackToBack() {
        #expect(lines(items("{\n \"a\": 1\n}\n{\n \"b\": [1, 2]\n}")) == ["item@1", "item@4"])
    }

    @Test func aTopLevelArrayGivesOneItemPerElement() {
        #expect(lines(items("[\n {\"a\":1},\n {\"b\":2}\n]\n")) == ["item@2", "item@3"])
    }

    @Test func anArchivePrefixIsSkipped() {
        var reader = JSONItemReader(bytes: Array("window.YTD.tweets.part0 = [ {\"tweet\": {}} ]".utf8))
        #expect(reader.isArchive)
        guard case .item(let item) = reader.next() else { Issue.record("no item"); return }
        #expect(item.value["tweet"] != nil)
        #expect(reader.next() == nil)
    }

    @Test func aBrokenLineIsReportedAndTheNextLinesStillRead() {
        let results = items("{\"a\":1}\n{\"b\": \"trunc\n{\"c\":3}\n")
        #expect(lines(results) == ["item@1", "malformed@2", "item@3"])
        guard case .malformed(_, let message) = results[1] else { return }
        #expect(message.contains("column 13"))
    }

    @Test func notJSONAtAllStopsAtOnce() {
        #expect(lines(items("id,text\n1,hello\n2,world\n")) == ["malformed@1"])
    }

    @Test func aLineOfProseBetweenDocumentsIsTextNotAnError() {
        #expect(lines(items("{\"a\":1}\nClassic Tweet, extended mode\n{\"b\":2}")) == ["item@1", "text@2", "item@3"])
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        let results = items(#"{"s": "a\"b\\c\/d\n\u00e9\ud83c\udde9\ud83c\uddff\u20ac"}"#)
        guard case .item(let item) = results.first else { Issue.record("no item"); return }
        #expect(item.value["s"]?.string == "a\"b\\c/d\né🇩🇿€")
    }

    @Test func numbersKeepTheirLiteralSoBigIdsSurvive() {
        guard case .item(let item) = items(#"{"id": 1149825924029980674, "r": -1.5e3, "s": "42"}"#).first else { return }
        #expect(item.value["id"]?.string == "1149825924029980674")
        #expect(item.value["r"]?.double == -1500)
        #expect(item.value["s"]?.int == 42)
    }

    @Test(arguments: ["{\"a\" 1}", "[1 2]", "{\"a\": tru}", "{\"a\": 01x}", "{\"a\": \"\\x\"}", "{\"a\": 1,}"])
    func malformedInputIsAnError(_ text: String) {
        #expect(lines(items(text)) == ["malformed@1"])
    }
}
