/// A run of a post's text: plain text, or exactly one mention. Every face (terminal, web) renders a post's text from
/// these, never by splicing markup into the text.
public struct TextSegment: Sendable, Hashable {
    public let text: String
    public let mention: Mention?

    /// What people see: a link's display form rather than its `t.co` wrapper.
    public var shown: String { mention?.display ?? text }
}

extension Post {
    /// The text cut at its mentions' boundaries, in order; joined, the segments give back `text`.
    public var segments: [TextSegment] { segments(from: 0) }

    /// The segments people see: a reply's text after its leading `@names`, and without a trailing link to the quoted
    /// post when the row shows the quote itself (X appends one to every quote tweet and hides it).
    public var shownSegments: [TextSegment] {
        var shown = segments(from: displayStart)
        guard quoted != nil, let quotedID, let last = shown.last, last.mention?.isLink(toPost: quotedID) == true else {
            return shown
        }
        shown.removeLast()
        guard let before = shown.last, before.mention == nil else { return shown }
        var kept = before.text.unicodeScalars
        while let last = kept.last, last.properties.isWhitespace { kept.removeLast() }
        shown.removeLast()
        if !kept.isEmpty { shown.append(TextSegment(text: String(kept), mention: nil)) }
        return shown
    }

    /// The names a reply's text leaves out, shown as "Replying to …"; else, for a reply whose network says whom it
    /// answers (Mastodon, Bluesky), that author when it is someone else.
    public var replyingTo: ReplyingTo? {
        let names = mentions.prefix { $0.range.upperBound <= displayStart && $0.kind == .user }.map(\.keyword)
        if !names.isEmpty { return ReplyingTo(names: names) }
        guard let user = inReplyToUser, user.lowercased() != author.handle.lowercased() else { return nil }
        return ReplyingTo(names: ["@" + user])
    }

    private func segments(from start: Int) -> [TextSegment] {
        var segments: [TextSegment] = []
        let scalars = text.unicodeScalars
        let length = scalars.count  // O(n): counted once, not once per mention
        guard start <= length else { return [] }
        var index = scalars.index(scalars.startIndex, offsetBy: start)
        var offset = start
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

/// "Replying to @a @b and 3 others", as X shows a reply's leading names: the first few, then how many more.
public struct ReplyingTo: Sendable, Hashable {
    public static let shownNames = 3
    public let names: [String]

    public var shown: ArraySlice<String> { names.prefix(Self.shownNames) }

    /// " and 1 other", " and 3 others", or nothing.
    public var others: String {
        let count = names.count - shown.count
        return count == 0 ? "" : count == 1 ? " and 1 other" : " and \(count) others"
    }

    /// "Replying to @a @b and 3 others", as plain text.
    public var sentence: String { "Replying to " + shown.joined(separator: " ") + others }
}

extension Mention {
    /// A link to the post with this id (`…/status/ID`, as X links quoted tweets).
    fileprivate func isLink(toPost id: String) -> Bool {
        guard kind == .url, let target = expandedURL else { return false }
        let path = target.split(separator: "?", maxSplits: 1).first ?? ""
        return path.hasSuffix("/status/" + id) || path.hasSuffix("/statuses/" + id)
    }
}
