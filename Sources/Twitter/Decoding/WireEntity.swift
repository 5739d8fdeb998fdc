import Posts

/// An entity as a wire format states it, before it is checked against the text.
struct WireEntity: Sendable {
    let kind: Mention.Kind
    /// In Unicode scalars of the text as delivered (HTML-escaped), end exclusive.
    let range: Range<Int>
    /// What the text should hold there: `#tag`, `@name` or the t.co link.
    let token: String
    let expandedURL: String?
    /// For links: `display_url`, what X shows in place of the t.co link.
    let display: String?

    init?(kind: Mention.Kind, start: Int?, end: Int?, token: String, expandedURL: String? = nil, display: String? = nil)
    {
        guard let start, let end, start >= 0, start <= end else { return nil }
        self.kind = kind
        self.range = start..<end
        self.token = token
        self.expandedURL = expandedURL
        self.display = display
    }
}

/// A tweet's text as delivered, with what the wire says is in it.
struct WireText: Sendable {
    var escapedText: String
    var entities: [WireEntity]
    /// The t.co links of the tweet's own media, which Twitter appends to the text and no client shows.
    var mediaLinks: [String]
    /// A reply's leading `@names` are shown as "Replying to …", not as text.
    var isReply = false
    /// Where `display_text_range` says the shown text begins (v1.1 extended mode), in scalars of the escaped text;
    /// without it, every leading `@name` of a reply is its prefix.
    var displayStart: Int? = nil
}
