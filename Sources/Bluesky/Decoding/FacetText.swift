import Posts
import WireJSON

/// A post's facets as mentions. Facets count UTF-8 bytes of the text; mentions count its code points.
///
/// A facet is dropped, never moved, when its range runs past the text, does not fall on code-point boundaries or
/// overlaps an earlier one, or when the text there disagrees with its feature (a mention not written `@…`, a tag not
/// `#` and its tag). A wrong highlight is worse than none. A link is shown by its text, which Bluesky's clients
/// shorten (`example.com/a…`), and opened at its `uri`; only `http(s)` links are links.
struct FacetText {
    private(set) var mentions: [Mention] = []
    private let bytes: [UInt8]
    /// The code-point offset of each byte offset that starts a code point (and of the end); nil inside one.
    private let codePoints: [Int?]

    init(text: String, facets: [JSONValue]) {
        bytes = Array(text.utf8)
        codePoints = Self.codePointOffsets(bytes)
        var end = 0
        for facet in facets.compactMap(Facet.init).sorted(by: { $0.bytes.lowerBound < $1.bytes.lowerBound }) {
            guard facet.bytes.lowerBound >= end, let mention = mention(for: facet) else { continue }
            mentions.append(mention)
            end = facet.bytes.upperBound
        }
    }

    private static func codePointOffsets(_ bytes: [UInt8]) -> [Int?] {
        var offsets: [Int?] = []
        offsets.reserveCapacity(bytes.count + 1)
        var codePoint = 0
        for byte in bytes {
            let starts = byte & 0xC0 != 0x80
            offsets.append(starts ? codePoint : nil)
            if starts { codePoint += 1 }
        }
        offsets.append(codePoint)
        return offsets
    }

    private func mention(for facet: Facet) -> Mention? {
        guard facet.bytes.upperBound <= bytes.count, let start = codePoints[facet.bytes.lowerBound],
            let end = codePoints[facet.bytes.upperBound]
        else { return nil }
        let slice = String(decoding: bytes[facet.bytes], as: UTF8.self)
        guard let (kind, expandedURL) = facet.feature.meaning(of: slice) else { return nil }
        return Mention(kind: kind, keyword: slice, range: start..<end, expandedURL: expandedURL)
    }
}

/// One facet as the record states it: its byte range and the first feature Smashtag shows.
private struct Facet {
    let bytes: Range<Int>
    let feature: Feature

    init?(_ json: JSONValue) {
        guard let start = json["index"]?["byteStart"]?.int, let end = json["index"]?["byteEnd"]?.int, 0 <= start,
            start < end,
            let feature = json["features"]?.array?.lazy.compactMap(Feature.init).first
        else { return nil }
        bytes = start..<end
        self.feature = feature
    }
}

private enum Feature {
    case mention
    case tag(String)
    case link(String)

    init?(_ json: JSONValue) {
        let type = json["$type"]?.string ?? ""
        if type.hasSuffix("#mention"), json["did"]?.nonEmptyString != nil {
            self = .mention
        } else if type.hasSuffix("#tag"), let tag = json["tag"]?.nonEmptyString {
            self = .tag(tag)
        } else if type.hasSuffix("#link"), let uri = json["uri"]?.nonEmptyString {
            self = .link(uri)
        } else {
            return nil
        }
    }

    /// What the text says here as a mention's kind and target, or nil when it disagrees with the feature.
    func meaning(of slice: String) -> (Mention.Kind, String?)? {
        switch self {
        case .mention:
            return slice.count > 1 && (slice.hasPrefix("@") || slice.hasPrefix("＠")) ? (.user, nil) : nil
        case .tag(let tag):
            let written = slice.dropFirst()
            return (slice.hasPrefix("#") || slice.hasPrefix("＃")) && written.lowercased() == tag.lowercased()
                ? (.hashtag, nil) : nil
        case .link(let uri):
            return WebLink.isHTTP(uri) ? (.url, uri) : nil
        }
    }
}
