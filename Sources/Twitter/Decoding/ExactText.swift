import Posts

/// Turns delivered text and its entities into exact, unescaped text with mentions at the right places.
///
/// Offsets on the wire count Unicode scalars of the HTML-escaped text, so entities are checked and placed on the
/// escaped scalars first and each piece is unescaped afterwards. An entity that does not say what the text says
/// there (truncated retweets clamp them to the end, withheld tweets point at a notice) is moved to the nearest place
/// that does, or dropped: a wrong highlight is worse than none.
struct ExactText {
    private(set) var text: String = ""
    private(set) var mentions: [Mention] = []
    private(set) var displayStart = 0

    /// `readsUTF8`: false to read every text on its scalars, the reference `DirectText` is held to.
    init(_ wire: WireText, readsUTF8: Bool = true) {
        if wire.entities.isEmpty, wire.mediaLinks.isEmpty, !wire.escapedText.utf8.contains(UInt8(ascii: "&")) {
            text = wire.escapedText
            return
        }
        if readsUTF8, let direct = DirectText(wire) {
            (text, mentions) = (direct.text, direct.mentions)
        } else {
            let scalars = Self.removingTrailingLinks(wire.mediaLinks, from: Array(wire.escapedText.unicodeScalars))
            var placement = Placement(scalars: scalars)
            placement.place(wire.entities)
            assemble(Array(wire.escapedText.utf8), length: scalars.count, placed: placement.placed)
        }
        if wire.isReply { displayStart = replyPrefixEnd(upTo: wire.displayStart) }
    }

    /// The end of a reply's leading `@names` and the spaces after them. A prefix holds only names and spaces, so the
    /// escaped text's offsets (`display_text_range`) are the unescaped text's there. A reply that is nothing but names
    /// shows them as its text. ASCII text is read on its bytes, other text on its scalars.
    private func replyPrefixEnd(upTo limit: Int?) -> Int {
        guard mentions.first?.kind == .user else { return 0 }
        let ascii = text.utf8.withContiguousStorageIfAvailable { utf8 -> Int? in
            guard DirectText.isASCII(utf8) else { return nil }
            return replyPrefixEnd(upTo: limit, length: utf8.count) { DirectText.isASCIIWhitespace(utf8[$0]) }
        }
        if let ascii, let ascii { return ascii }
        let scalars = Array(text.unicodeScalars)
        return replyPrefixEnd(upTo: limit, length: scalars.count) { scalars[$0].properties.isWhitespace }
    }

    /// `isSpace`: whether the scalar at an offset (below `length`) is whitespace.
    private func replyPrefixEnd(upTo limit: Int?, length: Int, isSpace: (Int) -> Bool) -> Int {
        func skippingSpaces(from offset: Int) -> Int {
            var offset = offset
            while offset < length, isSpace(offset) { offset += 1 }
            return offset
        }
        var end = 0
        for mention in mentions {
            guard mention.kind == .user, skippingSpaces(from: end) == mention.range.lowerBound,
                mention.range.upperBound <= limit ?? .max
            else { break }
            end = mention.range.upperBound
        }
        let start = skippingSpaces(from: end)
        return end == 0 || start == length ? 0 : start
    }

    /// Builds the unescaped text in UTF-8, copying the runs between entities and counting scalars as it goes, so the
    /// mentions' offsets come out in scalars of the unescaped text.
    private mutating func assemble(_ source: [UInt8], length: Int, placed: [PlacedEntity]) {
        let entities = placed.sorted { $0.range.lowerBound < $1.range.lowerBound }
        let boundaries = Self.byteOffsets(
            of: entities.flatMap { [$0.range.lowerBound, $0.range.upperBound] } + [length], in: source)
        var output: [UInt8] = []
        output.reserveCapacity(source.count)
        var outputLength = 0
        var cursor = 0
        for (index, entity) in entities.enumerated() {
            let (start, end) = (boundaries[2 * index], boundaries[2 * index + 1])
            outputLength += Self.appendUnescaped(source[cursor..<start], to: &output)
            let keywordStart = output.count
            let keywordLength = Self.appendUnescaped(source[start..<end], to: &output)
            let keyword = String(decoding: output[keywordStart...], as: UTF8.self)
            mentions.append(entity.mention(keyword: keyword, range: outputLength..<outputLength + keywordLength))
            outputLength += keywordLength
            cursor = end
        }
        _ = Self.appendUnescaped(source[cursor..<boundaries[boundaries.count - 1]], to: &output)
        text = String(decoding: output, as: UTF8.self)
    }

    /// Byte offsets of ascending scalar offsets, in one pass over the UTF-8.
    private static func byteOffsets(of scalarOffsets: [Int], in bytes: [UInt8]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(scalarOffsets.count)
        var scalar = 0
        var byte = 0
        for target in scalarOffsets {
            while scalar < target, byte < bytes.count {
                byte += 1
                while byte < bytes.count, bytes[byte] & 0xC0 == 0x80 { byte += 1 }
                scalar += 1
            }
            result.append(byte)
        }
        return result
    }

    /// Appends the piece with `&amp;`, `&lt;` and `&gt;` (the only escapes Twitter uses) unescaped; returns how many
    /// scalars it appended.
    private static func appendUnescaped(_ piece: ArraySlice<UInt8>, to output: inout [UInt8]) -> Int {
        var scalars = 0
        var index = piece.startIndex
        while index < piece.endIndex {
            let byte = piece[index]
            if byte == UInt8(ascii: "&"), let (unescaped, length) = escape(in: piece[(index + 1)...]) {
                output.append(unescaped)
                index += 1 + length
            } else {
                output.append(byte)
                index += 1
            }
            if byte & 0xC0 != 0x80 { scalars += 1 }
        }
        return scalars
    }

    private static let escapes: [(name: [UInt8], byte: UInt8)] = [
        (Array("amp;".utf8), UInt8(ascii: "&")), (Array("lt;".utf8), UInt8(ascii: "<")),
        (Array("gt;".utf8), UInt8(ascii: ">")),
    ]

    private static func escape(in rest: ArraySlice<UInt8>) -> (UInt8, Int)? {
        escapes.first { rest.starts(with: $0.name) }.map { ($0.byte, $0.name.count) }
    }

    private static func removingTrailingLinks(_ links: [String], from scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var end = trimmedEnd(scalars, upTo: scalars.count)
        var removed = true
        while removed {
            removed = false
            for link in links.map({ Array($0.unicodeScalars) })
            where !link.isEmpty && link.count <= end && scalars[(end - link.count)..<end].elementsEqual(link) {
                end = trimmedEnd(scalars, upTo: end - link.count)
                removed = true
            }
        }
        return end == scalars.count ? scalars : Array(scalars[..<end])
    }

    private static func trimmedEnd(_ scalars: [Unicode.Scalar], upTo end: Int) -> Int {
        var end = end
        while end > 0, scalars[end - 1].properties.isWhitespace { end -= 1 }
        return end
    }
}

/// An entity at its checked place in the escaped text.
struct PlacedEntity {
    let entity: WireEntity
    let range: Range<Int>

    func mention(keyword: String, range: Range<Int>) -> Mention {
        let isLink = entity.kind == .url
        return Mention(
            kind: entity.kind, keyword: keyword, range: range,
            expandedURL: isLink ? entity.expandedURL ?? entity.token : nil, display: isLink ? entity.display : nil
        )
    }
}

/// Decides where each entity goes: where it says if the text agrees, else the nearest place the text agrees.
///
/// Linear in the text and the entities: a misplaced entity is looked for outward from where it claims to be, no
/// further than `searchRadius` (a real post is at most 25,000 characters, and a truncated retweet's clamped
/// entities land within a few hundred of their place), and taken places are marked, not searched.
struct Placement {
    static let searchRadius = 25_000

    let scalars: [Unicode.Scalar]
    private(set) var placed: [PlacedEntity] = []
    private lazy var folded: [Unicode.Scalar] = scalars.map(Self.fold)
    private var taken: [Bool]

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        taken = Array(repeating: false, count: scalars.count)
    }

    mutating func place(_ entities: [WireEntity]) {
        var misplaced: [WireEntity] = []
        for entity in entities.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            if matches(entity.token, at: entity.range), isFree(entity.range) {
                take(entity, at: entity.range)
            } else {
                misplaced.append(entity)
            }
        }
        for entity in misplaced {
            if let range = nearestPlace(for: entity) { take(entity, at: range) }
        }
    }

    private mutating func take(_ entity: WireEntity, at range: Range<Int>) {
        placed.append(PlacedEntity(entity: entity, range: range))
        for index in range { taken[index] = true }
    }

    private func isFree(_ range: Range<Int>) -> Bool {
        !taken[range].contains(true)
    }

    private func matches(_ token: String, at range: Range<Int>) -> Bool {
        guard range.upperBound <= scalars.count else { return false }
        return Self.says(token, scalars[range])
    }

    /// Whether the scalars are the token, folded; an entity never says nothing.
    static func says(_ token: String, _ scalars: some Collection<Unicode.Scalar>) -> Bool {
        let tokenScalars = token.unicodeScalars
        guard scalars.count == tokenScalars.count, !scalars.isEmpty else { return false }
        return zip(scalars, tokenScalars).allSatisfy { fold($0) == fold($1) }
    }

    /// The closest start to the claimed one where the text says the token, as a whole word, in a free place; of two
    /// equally close, the earlier.
    private mutating func nearestPlace(for entity: WireEntity) -> Range<Int>? {
        let token = entity.token.unicodeScalars.map(Self.fold)
        guard !token.isEmpty, token.count <= scalars.count else { return nil }
        let folded = self.folded
        let lastStart = scalars.count - token.count
        let claimed = min(max(entity.range.lowerBound, 0), lastStart)
        func place(at start: Int) -> Range<Int>? {
            guard start >= 0, start <= lastStart else { return nil }
            let range = start..<start + token.count
            guard folded[range].elementsEqual(token), isWordBoundary(around: range, kind: entity.kind), isFree(range)
            else { return nil }
            return range
        }
        for distance in 0...min(Self.searchRadius, max(claimed, lastStart - claimed)) {
            if let range = place(at: claimed - distance) ?? place(at: claimed + distance) { return range }
        }
        return nil
    }

    private func isWordBoundary(around range: Range<Int>, kind: Mention.Kind) -> Bool {
        if range.lowerBound > 0, Self.isWordScalar(scalars[range.lowerBound - 1]) { return false }
        if kind != .url, range.upperBound < scalars.count, Self.isWordScalar(scalars[range.upperBound]) { return false }
        return true
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return scalar == "_" || properties.isAlphabetic || properties.numericType != nil
            || [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory)
    }

    /// Case-folds one scalar to one scalar (so offsets never shift) and reads the full-width `＃`/`＠` as `#`/`@`.
    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar {
        case "＃": return "#"
        case "＠": return "@"
        case "A"..."Z": return Unicode.Scalar(scalar.value + 32)!
        case _ where scalar.isASCII: return scalar
        default:
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return lower.count == 1 ? lower.first! : scalar
        }
    }
}
