import AppStore
import Foundation
import Posts

/// A post as a row of a list: pre-formatted strings only, its text as segments so each piece is escaped.
struct PostRow: Sendable {
    let id: String
    let network: NetworkBadge
    let avatarURL: String?
    let initial: String
    let name: String
    let handle: String
    let date: String
    /// The time to the minute, as `<time datetime>` says it (`2024-12-03T15:46Z`): the row shows no finer (its
    /// Mentions page does), and seconds are bytes every row would carry.
    let isoDate: String
    /// "retweeted by @jack", "boosted by @alice@example.social": as the network says it.
    let repostedBy: String?
    /// A reply's leading `@names`, which X shows above the text rather than in it.
    let replyingTo: ReplyingTo?
    /// The author's warning: the text is shown only when asked for.
    let contentWarning: String?
    let segments: [SegmentView]
    let quoted: QuotedRow?
    /// A link's preview, shown under the text (not a link itself: the row is one; the Mentions page opens it).
    let card: LinkCard?
    /// The preview's picture, when it is an `http(s)` address.
    let cardImageURL: String?
    /// "▣ 2 images · ▶ 1 video 1:28": what the Mentions page shows and plays.
    let mediaNote: MediaNote
    /// Only a post with mentions or images opens its Mentions page.
    let detailURL: String?
    /// Its author has not opted in to search: shown as the server returned it, kept only as a count.
    let notIndexable: Bool
    /// A reply's thread, under the row (a link of its own: the row may be one already).
    let threadURL: String?
    /// "Seen on 3 servers", for a post several servers of a network gave (the Mentions page lists them).
    let seenOn: String?

    /// Where tapping a row goes: a search's rows open their Mentions page (a reply has its thread linked under it),
    /// a thread's replies open their own thread, and the post a thread is about its Mentions page — or nowhere, when
    /// it came from a network and neither a search nor the corpus kept it.
    enum Target {
        case mentions
        case thread
        case mentionsOnly
        case nowhere
    }

    init(_ post: Post, links: PostLinks, now: Date = .now, opening target: Target = .mentions) {
        id = post.key.description
        network = NetworkBadge(post.network)
        avatarURL = post.author.profileImageURL.flatMap(SafeURL.image)
        initial = String(post.author.name.first ?? "?")
        name = post.author.name
        handle = "@" + post.author.handle
        date = RelativeDate.format(post.created, now: now)
        isoDate = Self.minuteTime(post.created)
        repostedBy = post.repostedBy.map { "\(post.network.repostVerb) by @\($0.handle)" }
        replyingTo = post.replyingTo
        contentWarning = post.contentWarning
        segments = post.shownSegments.map(SegmentView.init)
        quoted = post.quoted.map(QuotedRow.init) ?? post.quotedID.map { _ in QuotedRow.unavailable }
        card = post.card
        // A sensitive post's preview picture is left out: the row has no blur of its own.
        cardImageURL = post.isSensitive ? nil : post.card?.imageURL.flatMap(SafeURL.link)
        mediaNote = MediaNote(post.media)
        // A post that is not kept has no Mentions page to open.
        let opens = !post.notIndexable && (!post.media.isEmpty || !post.mentions.isEmpty || post.card != nil)
        detailURL =
            switch target {
            case .thread: links.threadURL(post.key)
            case .nowhere: nil
            case .mentions, .mentionsOnly: opens ? links.url(post.key) : nil
            }
        notIndexable = post.notIndexable
        threadURL = target == .mentions && post.inReplyToID != nil ? links.threadURL(post.key) : nil
        seenOn = post.seenOn.isEmpty ? nil : "Seen on \(counted(post.seenOn.count, "server"))"
    }
}

extension PostRow {
    /// ISO 8601 to the minute (`2024-12-03T15:46Z`, a valid HTML date and time), the seconds cut, not rounded.
    static func minuteTime(_ date: Date) -> String {
        UTCTime(date).iso8601ToTheMinute
    }
}

/// A row's network, small, with its name for screen readers.
struct NetworkBadge: Sendable {
    let network: String
    let name: String
    let letter: String

    init(_ network: Network) {
        (self.network, name) = (network.rawValue, network.displayName)
        letter = String(name.prefix(1))
    }
}

/// A quoted post inside its row: who wrote it and its text (its mentions coloured, not links: the row is one).
struct QuotedRow: Sendable {
    let name: String
    let handle: String
    let segments: [SegmentView]

    init(_ post: Post) {
        name = post.author.name
        handle = "@" + post.author.handle
        segments = post.shownSegments.map(SegmentView.init)
    }

    private init(name: String, handle: String, segments: [SegmentView]) {
        (self.name, self.handle, self.segments) = (name, handle, segments)
    }

    /// A quote whose post the data did not include.
    static let unavailable = QuotedRow(name: "", handle: "", segments: [])
}

/// One run of a post's text: plain text, or a mention with its kind.
struct SegmentView: Sendable {
    let text: String
    let mention: MentionView?

    init(_ segment: TextSegment) {
        text = segment.shown
        mention = segment.mention.map { MentionView(text: segment.shown, kind: $0.kind.rawValue) }
    }
}

/// A mention in a post's text.
struct MentionView: Sendable {
    let text: String
    let kind: String
}

extension PostRow {
    /// One `<li>`: a link to the Mentions page when the post has any, else a plain row. A post behind a content
    /// warning is a plain row whose chevron is the link, as its `<details>` cannot sit inside a link. `marked`: the
    /// post a thread is about; `nested`: what goes inside the item after the row (a thread's replies).
    ///
    /// The post's key is written once: a row with a link names it in the link's address (`…/twitter/ID`), one
    /// without says it in `data-post-id` (the page's script reads either, to show no post twice). A row repeats
    /// nothing a script or a style does not read: twenty of them are most of the page's bytes.
    func write(to html: inout HTMLWriter, marked: Bool = false, nested: (inout HTMLWriter) -> Void = { _ in }) {
        html.append("<li class=\"post\(marked ? Self.focus : .empty)\"")
        if detailURL == nil { html.append(" data-post-id=\"\(id)\"") }
        html.append(">\n")
        let wholeRowLinks = detailURL != nil && contentWarning == nil
        if wholeRowLinks, let detailURL {
            html.append("<a class=\"row\" href=\"\(url: detailURL)\">\n")
        } else {
            html.append("<div class=\"row\">\n")
        }
        if let avatarURL {
            html.append(
                """
                <img class=\"avatar\" src=\"\(url: avatarURL)\" alt=\"\" loading=\"lazy\">\n
                """
            )
        } else {
            html.append("<span class=\"avatar\" aria-hidden=\"true\">\(initial)</span>\n")
        }
        html.append(
            """
            <div class="body">
            <p class="who"><span class="net net-\(network.network)" role="img" aria-label="\(network.name)">\
            \(network.letter)</span> \
            <strong>\(name)</strong> <span class="dim">\(handle) · <time datetime="\(isoDate)">\(date)</time></span></p>

            """)
        if let repostedBy { html.append("<p class=\"dim small\">↻ \(repostedBy)</p>\n") }
        writeReplyingTo(to: &html)
        writeText(to: &html)
        mediaNote.write(to: &html)
        if let seenOn { html.append("<p class=\"dim small seen\">\(seenOn)</p>\n") }
        if notIndexable {
            html.append("<p class=\"dim small\">Not kept: its author has not opted in to search.</p>\n")
        }
        html.append("</div>\n")
        if let detailURL, !wholeRowLinks {
            html.append("<a class=\"chevron\" href=\"\(url: detailURL)\" aria-label=\"Mentions\">›</a>\n</div>\n")
        } else if detailURL != nil {
            html.append("</a>\n")  // its chevron is the stylesheet's (`a.row::after`)
        } else {
            html.append("</div>\n")
        }
        if let threadURL { html.append("<a class=\"thread\" href=\"\(url: threadURL)\">Show thread</a>\n") }
        nested(&html)
        html.append("</li>\n")
    }

    private static let focus: Markup = #" focus" aria-current="true"#

    /// The link's preview: its picture, title and site.
    private func writeCard(to html: inout HTMLWriter) {
        guard let card else { return }
        html.append("<div class=\"card\">")
        if let cardImageURL { html.append("<img src=\"\(url: cardImageURL)\" alt=\"\" loading=\"lazy\">") }
        html.append(
            """
            <p class=\"card-title\">\(card.title.isEmpty ? card.host : card.title)</p><p class=\"dim \
            small\">\(card.host)</p></div>\n
            """
        )
    }

    /// "Replying to @a @b", the names coloured as users.
    private func writeReplyingTo(to html: inout HTMLWriter) {
        guard let replyingTo else { return }
        html.append("<p class=\"dim small replying\">Replying to")
        for name in replyingTo.shown { html.append(" <span class=\"m m-user\">\(name)</span>") }
        html.append("\(replyingTo.others)</p>\n")
    }

    /// The text and its link's preview (behind the warning, if there is one), then the quoted post.
    private func writeText(to html: inout HTMLWriter) {
        if let contentWarning { html.append("<details class=\"cw\"><summary>\(contentWarning)</summary>\n") }
        html.append("<p class=\"text\">")
        for segment in segments { segment.write(to: &html) }
        html.append("</p>\n")
        writeCard(to: &html)
        if contentWarning != nil { html.append("</details>\n") }
        guard let quoted else { return }
        if quoted.handle.isEmpty {
            html.append("<p class=\"quoted dim small\">Quotes a post that is not available here.</p>\n")
            return
        }
        html.append(
            """
            <blockquote class=\"quoted\"><p class=\"who\"><strong>\(quoted.name)</strong> <span \
            class=\"dim\">\(quoted.handle)</span></p><p class=\"text\">
            """
        )
        for segment in quoted.segments { segment.write(to: &html) }
        html.append("</p></blockquote>\n")
    }
}

extension SegmentView {
    /// Plain text as text; a mention in a span coloured by its kind.
    func write(to html: inout HTMLWriter) {
        if let mention {
            html.append("<span class=\"m m-\(mention.kind)\">\(mention.text)</span>")
        } else {
            html.append("\(text)")
        }
    }
}
