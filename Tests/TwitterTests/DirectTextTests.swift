import FixtureFolders
import Foundation
import TestSupport
import Testing

@testable import Posts
@testable import Twitter
@testable import WireJSON

/// `ExactText` read on the UTF-8 as delivered (`DirectText`) gives exactly what the scalar path gives: over the text
/// and entities of every object of the Twitter fixtures, and over generated texts with everything that sends a text
/// back to the scalar path (escapes, entities out of place or overlapping, tokens in other cases or scripts, trailing
/// media links and Unicode spaces).
@Suite struct DirectTextTests {
    @Test(arguments: SharedFixtures.isPresent ? SharedFixtures.twitterFiles : [])
    func everyFixtureTextReadsAsOnItsScalars(path: String) throws {
        var compared = 0
        for object in try FixtureFolder.objects(in: path, where: { $0["entities"] != nil }) {
            guard let text = (object["full_text"] ?? object["text"])?.string else { continue }
            for wire in Self.wires(text: text, entities: object["entities"]) {
                Self.expectSame(wire)
                compared += 1
            }
        }
        print("\((path as NSString).lastPathComponent): \(compared) texts compared")
    }

    @Test func generatedTextsReadAsOnTheirScalars() {
        var random = RepeatableRandom(seed: 39)
        for _ in 0..<20_000 { Self.expectSame(Self.generated(using: &random)) }
    }

    @Test func asciiWhitespaceIsUnicodeWhitespace() {
        for byte in UInt8(0)..<0x80 {
            #expect(DirectText.isASCIIWhitespace(byte) == Unicode.Scalar(byte).properties.isWhitespace, "\(byte)")
        }
    }

    private static func expectSame(_ wire: WireText) {
        let direct = ExactText(wire)
        let scalars = ExactText(wire, readsUTF8: false)
        #expect(direct.text == scalars.text, "\(wire)")
        #expect(direct.mentions == scalars.mentions, "\(wire)")
        #expect(direct.displayStart == scalars.displayStart, "\(wire)")
    }

    /// The entities as v1.1 (`indices`) or v2 (`start`, `end`) state them, the media links as both mark them; as a
    /// reply and not.
    private static func wires(text: String, entities: JSONValue?) -> [WireText] {
        guard let entities else { return [] }
        var wire = WireText(escapedText: text, entities: [], mediaLinks: [])
        let groups: [(String, Mention.Kind, String, String)] = [
            ("hashtags", .hashtag, "#", "text"), ("hashtags", .hashtag, "#", "tag"),
            ("user_mentions", .user, "@", "screen_name"), ("mentions", .user, "@", "username"),
            ("urls", .url, "", "url"), ("media", .url, "", "url"),
        ]
        for (key, kind, prefix, name) in groups {
            for entity in entities[key]?.array ?? [] {
                guard let token = entity[name]?.string else { continue }
                let start = entity["indices"]?.array?.first?.int ?? entity["start"]?.int
                let end = entity["indices"]?.array?.last?.int ?? entity["end"]?.int
                let display = entity["display_url"]?.string ?? ""
                if key == "media" || entity["media_key"] != nil || display.hasPrefix("pic.") {
                    wire.mediaLinks.append(token)
                } else if let placed = WireEntity(kind: kind, start: start, end: end, token: prefix + token) {
                    wire.entities.append(placed)
                }
            }
        }
        var reply = wire
        reply.isReply = true
        return [wire, reply]
    }

    private static let pieces = [
        "a", "B", "z", " ", "  ", "\n", "é", "한", "😀", "\u{3000}", "\u{A0}", "K", "\u{212A}", "ß", "&amp;", "&",
        "#tag", "#TAG", "#Tag", "@name", "@Name", "＃tag", "#한국", "https://t.co/x", "🇩🇿", "e\u{301}",
    ]

    /// A text of random pieces, entities on some of its tokens (where they are, shifted, overlapping, in another
    /// case), and perhaps a media link at its end.
    private static func generated(using random: inout RepeatableRandom) -> WireText {
        var text = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
        let link = "https://t.co/media"
        let hasLink = Bool.random(using: &random)
        if hasLink {
            text += [" ", "", "\u{3000}"].randomElement(using: &random)! + link
            text += ["", " ", "\n"].randomElement(using: &random)!
        }
        let scalars = Array(text.unicodeScalars)
        var entities: [WireEntity] = []
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let start = Int.random(in: 0...scalars.count, using: &random)
            let length = Int.random(in: 0...min(16, scalars.count - start), using: &random)
            var token = String(String.UnicodeScalarView(scalars[start..<start + length]))
            switch Int.random(in: 0..<4, using: &random) {
            case 0: token = token.uppercased()
            case 1: token = "#" + token
            default: break
            }
            let shift = [0, 0, 0, 1, -1, 3].randomElement(using: &random)!
            let kind = [Mention.Kind.hashtag, .user, .url].randomElement(using: &random)!
            if let entity = WireEntity(kind: kind, start: start + shift, end: start + length + shift, token: token) {
                entities.append(entity)
            }
        }
        var wire = WireText(escapedText: text, entities: entities, mediaLinks: hasLink ? [link] : [])
        wire.isReply = Bool.random(using: &random)
        return wire
    }
}
