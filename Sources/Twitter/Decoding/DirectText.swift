import Posts

/// `ExactText`'s common case read on the UTF-8 as delivered: text without escapes, whose entities all say what the
/// text says where they claim, none overlapping. There the unescaped text is the escaped one, so offsets need no
/// moving and the text no copying into scalars and back; the result is what the scalar path gives. Anything else (an
/// `&`, an entity out of place) is nil, and left to the scalar path.
struct DirectText {
    let text: String
    let mentions: [Mention]

    init?(_ wire: WireText) {
        guard let read = wire.escapedText.utf8.withContiguousStorageIfAvailable({ Self.read(wire, $0) }), let read
        else { return nil }
        self = read
    }

    private init(text: String, mentions: [Mention]) {
        self.text = text
        self.mentions = mentions
    }

    private static func read(_ wire: WireText, _ bytes: UnsafeBufferPointer<UInt8>) -> DirectText? {
        guard !bytes.contains(UInt8(ascii: "&")) else { return nil }
        let end = endWithoutTrailingLinks(wire.mediaLinks, in: bytes)
        var mentions: [Mention] = []
        mentions.reserveCapacity(wire.entities.count)
        var cursor = ScalarCursor()
        var placedEnd = 0
        // In the scalar path's order: each entity where it claims to be, if the text says it there and no entity
        // before it took the place.
        for entity in wire.entities.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let range = entity.range
            guard range.lowerBound >= placedEnd, let start = cursor.advance(to: range.lowerBound, in: bytes, end: end),
                let stop = cursor.advance(to: range.upperBound, in: bytes, end: end)
            else { return nil }
            let keyword = UnsafeBufferPointer(rebasing: bytes[start..<stop])
            guard says(entity.token, keyword) else { return nil }
            let placed = PlacedEntity(entity: entity, range: range)
            mentions.append(placed.mention(keyword: String(decoding: keyword, as: UTF8.self), range: range))
            placedEnd = range.upperBound
        }
        let text =
            end == bytes.count
            ? wire.escapedText : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        return DirectText(text: text, mentions: mentions)
    }

    /// As `Placement.says`; ASCII on both sides is compared as bytes, folding only A–Z.
    private static func says(_ token: String, _ keyword: UnsafeBufferPointer<UInt8>) -> Bool {
        let ascii = token.utf8.withContiguousStorageIfAvailable { token -> Bool? in
            guard isASCII(token), isASCII(keyword) else { return nil }
            return token.count == keyword.count && !token.isEmpty
                && zip(token, keyword).allSatisfy { lowercased($0) == lowercased($1) }
        }
        if let ascii, let ascii { return ascii }
        return Placement.says(token, String(decoding: keyword, as: UTF8.self).unicodeScalars)
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }

    /// The ASCII scalars whose `properties.isWhitespace` is true: tab to carriage return, and space.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        (0x09...0x0D).contains(byte) || byte == 0x20
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Where the text ends once trailing whitespace and the links to its own media are cut (as
    /// `ExactText.removingTrailingLinks` cuts them): bytes compare as their scalars do, and a link starts with a
    /// whole scalar, so it matches only at one.
    private static func endWithoutTrailingLinks(_ links: [String], in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = trimmedEnd(bytes, upTo: bytes.count)
        var removed = true
        while removed {
            removed = false
            for link in links {
                let utf8 = link.utf8
                guard !utf8.isEmpty, utf8.count <= end, bytes[(end - utf8.count)..<end].elementsEqual(utf8) else {
                    continue
                }
                end = trimmedEnd(bytes, upTo: end - utf8.count)
                removed = true
            }
        }
        return end
    }

    private static func trimmedEnd(_ bytes: UnsafeBufferPointer<UInt8>, upTo end: Int) -> Int {
        var end = end
        while end > 0 {
            let last = bytes[end - 1]
            if last < 0x80 {
                guard isASCIIWhitespace(last) else { break }
                end -= 1
                continue
            }
            var start = end - 1
            while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                .unicodeScalars.first
            guard let scalar, scalar.properties.isWhitespace else { break }
            end = start
        }
        return end
    }
}

/// A place in UTF-8 counted in both bytes and scalars, moving forward only.
private struct ScalarCursor {
    private var byte = 0
    private var scalar = 0

    /// The byte where scalar `target` starts, if it is at or before `end` (the end of the text as shown).
    mutating func advance(to target: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Int? {
        while scalar < target {
            guard byte < end else { return nil }
            byte += 1
            while byte < end, bytes[byte] & 0xC0 == 0x80 { byte += 1 }
            scalar += 1
        }
        return byte
    }
}
