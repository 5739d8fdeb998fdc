import Posts

/// An entity as a wire format states it, before it is checked against the text.
struct WireEntity: Sendable {
    let kind: Mention.Kind
    /// In Unicode scalars of the text as delivered (HTML-escaped), end exclusive.
    let range: Range<Int>
    /// What the text should hold there: `#tag`, `@name` or the t.co link.
    let token: String
    let expandedURL: String?

    init?(kind: Mention.Kind, start: Int?, end: Int?, token: String, expandedURL: String? = nil) {
        guard let start, let end, start >= 0, start <= end else { return nil }
        self.kind = kind
        self.range = start..<end
        self.token = token
        self.expandedURL = expandedURL
    }
}

/// A tweet's text as delivered, with what the wire says is in it.
struct WireText: Sendable {
    var escapedText: String
    var entities: [WireEntity]
    /// The t.co links of the tweet's own media, which Twitter appends to the text and no client shows.
    var mediaLinks: [String]
}
