import Posts

/// A post's text rebuilt with some mentions replaced or removed, every later mention's range and the shown text's
/// start moved by what changed before them (ranges are code points, so the text is rebuilt scalar by scalar).
struct PseudonymousText {
    enum Change {
        case keep
        case replace(keyword: String, url: String?)
        /// A link that cannot be kept: its place says so, and it is no longer a mention.
        case remove
    }

    private static let removedLink = "[link removed]"

    private let original: [Unicode.Scalar]
    private let originalDisplayStart: Int
    private var scalars: String.UnicodeScalarView = .init()
    /// How far into `original` has been copied.
    private var copied = 0
    private(set) var mentions: [Mention] = []
    private(set) var displayStart: Int

    init(_ post: Post, displayStart: Int) {
        original = Array(post.text.unicodeScalars)
        originalDisplayStart = displayStart
        self.displayStart = displayStart
    }

    var text: String {
        var all = scalars
        all.append(contentsOf: original[min(copied, original.count)...])
        return String(all)
    }

    /// Mentions come in text order and do not overlap (the model's rule); one out of order is kept as it is.
    mutating func replace(_ mention: Mention, with change: Change) {
        let range = mention.range.clamped(to: 0..<original.count)
        guard range.lowerBound >= copied else { return }
        scalars.append(contentsOf: original[copied..<range.lowerBound])
        let start = scalars.count
        let keyword: String
        switch change {
        case .keep: keyword = String(String.UnicodeScalarView(original[range]))
        case .replace(let replacement, _): keyword = replacement
        case .remove: keyword = Self.removedLink
        }
        scalars.append(contentsOf: keyword.unicodeScalars)
        copied = range.upperBound
        if range.upperBound <= originalDisplayStart { displayStart = originalDisplayStart + scalars.count - copied }
        switch change {
        case .keep:
            mentions.append(
                Mention(
                    kind: mention.kind, keyword: mention.keyword, range: start..<scalars.count,
                    expandedURL: mention.expandedURL, display: mention.display))
        case .replace(let replacement, let url):
            mentions.append(
                Mention(kind: mention.kind, keyword: replacement, range: start..<scalars.count, expandedURL: url))
        case .remove: break
        }
    }
}
