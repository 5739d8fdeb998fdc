import Posts
import WireJSON

/// A string with its length in Unicode scalars worked out once, so texts can be assembled without recounting.
struct TextPiece: Sendable {
    let string: String
    let scalarCount: Int

    init(_ string: String) {
        self.string = string
        scalarCount = string.unicodeScalars.count
    }
}

/// Assembles a tweet's text in UTF-8 and records each mention's place in Unicode scalars as it goes: the cheap way
/// to get offsets right for emoji, CJK and astral characters, with no Foundation formatting in the loop.
struct TweetTextBuilder: Sendable {
    private var bytes: [UInt8] = []
    private var scalarCount = 0
    private var mentions: [Mention] = []

    /// Starts a new text, keeping the buffer's capacity.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        scalarCount = 0
        mentions = []
    }

    /// Appends `piece`, after `separator` unless the text is still empty (so a text never starts or ends with one).
    mutating func append(_ piece: TextPiece, separator: TextPiece? = nil) {
        if let separator, !bytes.isEmpty { appendRaw(separator) }
        appendRaw(piece)
    }

    mutating func append(
        entity kind: Mention.Kind, _ keyword: TextPiece, separator: TextPiece? = nil, expandedURL: String? = nil
    ) {
        if let separator, !bytes.isEmpty { appendRaw(separator) }
        let start = scalarCount
        appendRaw(keyword)
        let display = expandedURL.map(DisplayURL.of)
        mentions.append(
            Mention(
                kind: kind, keyword: keyword.string, range: start..<scalarCount, expandedURL: expandedURL,
                display: display))
    }

    func build() -> (text: String, mentions: [Mention]) {
        (String(decoding: bytes, as: UTF8.self), mentions)
    }

    private mutating func appendRaw(_ piece: TextPiece) {
        bytes.append(contentsOf: piece.string.utf8)
        scalarCount += piece.scalarCount
    }
}

/// The t.co form Twitter gives every link.
enum ShortLink {
    static func url(code: UInt64) -> String {
        var builder = ByteWriter(capacity: 23)
        builder.append("https://t.co/")
        builder.append(base62: code, digits: 10)
        return builder.string
    }
}
