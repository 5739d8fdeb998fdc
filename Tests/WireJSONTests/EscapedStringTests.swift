import TestSupport
import Testing

@testable import WireJSON

/// Strings with escapes read back exactly: generated text (controls, quotes, backslashes, slashes, two-, three- and
/// four-byte scalars) written with every kind of escape JSON has, or raw where JSON allows, and read as a value and
/// on a tape; a lone half of a surrogate pair reads as U+FFFD, noted.
struct EscapedStringTests {
    static let scalars: [Unicode.Scalar] = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "é", "€", "한",
        "\u{FFFD}", "😀", "𝕏", "\u{10FFFF}", "\u{E000}",
    ]

    @Test func generatedStringsReadAsWritten() throws {
        var random = RepeatableRandom(seed: 39)
        for _ in 0..<5_000 {
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...24, using: &random)).map { _ in
                        Self.scalars.randomElement(using: &random)!
                    }))
            let literal = Self.literal(text, using: &random)
            let bytes = Array(#"{"s": \#(literal)}"#.utf8)
            #expect(try JSONValue.document(bytes)["s"]?.string == text, "\(literal)")
            let onTape = bytes.withUnsafeBufferPointer {
                JSONTape.read($0, ignoring: .none, rootKeys: JSONKeySet(["s"])) { $0["s"]?.string }
            }
            #expect(onTape == text, "\(literal)")
        }
    }

    @Test(arguments: [
        (#""a\ud800b""#, "a\u{FFFD}b"), (#""\udc00""#, "\u{FFFD}"), (#""\ud800\u0041""#, "\u{FFFD}A"),
        (#""\ud83d\ude00\ud800""#, "😀\u{FFFD}"),
    ])
    func aLoneSurrogateReadsAsReplacement(literal: String, text: String) throws {
        var reader = JSONItemReader(bytes: Array(#"{"s": \#(literal)}"#.utf8))
        guard case .item(let item) = reader.next() else { throw Failure() }
        #expect(item.value["s"]?.string == text)
        #expect(item.repairs.contains(.loneSurrogate))
    }

    /// `text` as a JSON string, each scalar escaped or not at random where JSON allows either.
    private static func literal(_ text: String, using random: inout RepeatableRandom) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            let short: [Unicode.Scalar: String] = [
                "\"": #"\""#, "\\": #"\\"#, "/": #"\/"#, "\n": #"\n"#, "\t": #"\t"#, "\r": #"\r"#, "\u{08}": #"\b"#,
                "\u{0C}": #"\f"#,
            ]
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where !mustEscape: literal.unicodeScalars.append(scalar)
            case 1 where short[scalar] != nil: literal += short[scalar]!
            default: literal += String(scalar.utf16.map { #"\u"# + hex($0) }.joined())
            }
        }
        return literal + "\""
    }

    private static func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private struct Failure: Error {}
}
