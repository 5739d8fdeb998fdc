import Posts
import Twitter

/// A run of a tweet's text: plain text, or exactly one mention. Every face (terminal, web) renders tweet text from
/// these, never by splicing markup into the text.
public struct TextSegment: Sendable, Hashable {
    public let text: String
    public let mention: Mention?
}

extension Post {
    /// The text cut at its mentions' boundaries, in order; joined, the segments give back `text`.
    public var segments: [TextSegment] {
        var segments: [TextSegment] = []
        let scalars = text.unicodeScalars
        let length = scalars.count  // O(n): counted once, not once per mention
        var index = scalars.startIndex
        var offset = 0
        func take(upTo end: Int, as mention: Mention?) {
            let start = index
            index = scalars.index(index, offsetBy: end - offset)
            offset = end
            if start < index { segments.append(TextSegment(text: String(scalars[start..<index]), mention: mention)) }
        }
        for mention in mentions where mention.range.lowerBound >= offset && mention.range.upperBound <= length {
            take(upTo: mention.range.lowerBound, as: nil)
            take(upTo: mention.range.upperBound, as: mention)
        }
        take(upTo: length, as: nil)
        return segments
    }
}
