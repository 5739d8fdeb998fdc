import Posts

/// A status's HTML `content` as plain text with its mentions, the way Mastodon shows it:
///
/// * hashtag anchors (`class="mention hashtag"`, `rel="tag"`) are hashtags, `#tag` as written;
/// * `h-card` mentions are users written with their full address, `@alice@example.social` (Mastodon shows only
///   `@alice`; Smashtag compares users across networks, so the host stays);
/// * other `http(s)` anchors are links shown by their visible text and opened at their `href`: a `class="invisible"`
///   span is not shown and a `class="ellipsis"` span ends in `…`, as Mastodon's stylesheet does;
/// * a paragraph break is a blank line, `<br>` a line break, block elements start on their own line;
/// * character references are decoded; custom emoji `:shortcodes:` stay text.
struct StatusContent {
    private(set) var text = ""
    private(set) var mentions: [Mention] = []
    private var length = 0
    private var anchor: Anchor?
    private var hiddenDepth = 0
    private var preformattedDepth = 0
    private let accounts: MentionedAccounts

    /// `accounts` are the status's `mentions[]`, which give a mentioned user's full address.
    init(html: String, accounts: MentionedAccounts) {
        self.accounts = accounts
        for token in HTMLTokenizer(html) { take(token) }
        trimTrailing { $0.properties.isWhitespace }
    }

    private static let blocks: Set<String> = [
        "div", "ul", "ol", "li", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr", "hr",
    ]

    private mutating func take(_ token: HTMLToken) {
        switch token {
        case .text(let piece): write(piece)
        case .startTag(let tag): open(tag)
        case .endTag(let name): close(name)
        }
    }

    private mutating func open(_ tag: HTMLTag) {
        switch tag.name {
        case "p": breakLines(2)
        case "br": anchor == nil ? append("\n") : anchor?.append(" ")
        case "a" where anchor == nil: anchor = Anchor(tag: tag)
        case "span": openSpan(tag)
        case "pre":
            breakLines(1)
            preformattedDepth += 1
        case let name where Self.blocks.contains(name): breakLines(1)
        default: break
        }
    }

    private mutating func close(_ name: String) {
        switch name {
        case "a": closeAnchor()
        case "span": closeSpan()
        case "pre":
            preformattedDepth = max(0, preformattedDepth - 1)
            breakLines(1)
        case "p": breakLines(2)
        case let name where Self.blocks.contains(name): breakLines(1)
        default: break
        }
    }

    /// Spans matter only inside links, where Mastodon hides part of a long address.
    private mutating func openSpan(_ tag: HTMLTag) {
        guard anchor != nil else { return }
        anchor?.spans.append(tag.has(class: "invisible") ? .invisible : tag.has(class: "ellipsis") ? .ellipsis : .plain)
    }

    private mutating func closeSpan() {
        guard let span = anchor?.spans.popLast() else { return }
        if span == .ellipsis { anchor?.append("…") }
    }

    private mutating func write(_ piece: String) {
        let shown = preformattedDepth > 0 ? piece : Self.collapsingLineBreaks(piece)
        if anchor != nil { anchor?.append(shown) } else { append(shown) }
    }

    /// Line breaks in the markup are spaces on screen; only `<br>` and blocks break lines.
    private static func collapsingLineBreaks(_ piece: String) -> String {
        guard piece.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" }) else { return piece }
        return String(
            String.UnicodeScalarView(piece.unicodeScalars.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }))
    }

    private mutating func closeAnchor() {
        guard let anchor else { return }
        self.anchor = nil
        guard let mention = anchor.mention(accounts: accounts) else { return append(anchor.visible) }
        let start = length
        append(mention.keyword)
        mentions.append(
            Mention(kind: mention.kind, keyword: mention.keyword, range: start..<length, expandedURL: mention.url))
    }

    private mutating func append(_ piece: String) {
        text += piece
        length += piece.unicodeScalars.count
    }

    /// Ends the text with at least `count` line breaks, unless nothing has been written yet.
    private mutating func breakLines(_ count: Int) {
        trimTrailing { $0 == " " }
        guard length > 0 else { return }
        let present = text.unicodeScalars.reversed().prefix { $0 == "\n" }.count
        if present < count { append(String(repeating: "\n", count: count - present)) }
    }

    /// Drops trailing scalars that match, never into a mention.
    private mutating func trimTrailing(_ matches: (Unicode.Scalar) -> Bool) {
        let floor = mentions.last?.range.upperBound ?? 0
        while length > floor, let last = text.unicodeScalars.last, matches(last) {
            text.unicodeScalars.removeLast()
            length -= 1
        }
    }
}

/// An `<a>` being read: its tag and the text it shows.
private struct Anchor {
    enum Span { case plain, invisible, ellipsis }

    let tag: HTMLTag
    var spans: [Span] = []
    private(set) var visible = ""

    init(tag: HTMLTag) {
        self.tag = tag
    }

    mutating func append(_ piece: String) {
        if !spans.contains(.invisible) { visible += piece }
    }

    /// What the anchor is, by Mastodon's markup; nil when it is none of a hashtag, a user or a web link.
    func mention(accounts: MentionedAccounts) -> (kind: Mention.Kind, keyword: String, url: String?)? {
        let href = tag.attributes["href"] ?? ""
        let classes = tag.classes
        if classes.contains("hashtag") || (tag.attributes["rel"] ?? "").split(separator: " ").contains("tag") {
            return visible.hasPrefix("#") && visible.count > 1 ? (.hashtag, visible, nil) : nil
        }
        if classes.contains("mention") || classes.contains("u-url"), visible.hasPrefix("@"), visible.count > 1 {
            return (.user, "@" + accounts.address(href: href, shown: String(visible.dropFirst())), nil)
        }
        guard WebLink.isHTTP(href) else { return nil }
        return (.url, visible.isEmpty ? href : visible, href)
    }
}
