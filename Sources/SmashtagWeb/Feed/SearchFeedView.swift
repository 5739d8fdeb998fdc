import AppStore
import Foundation
import Posts

/// A search's RSS 2.0 twin: the newest posts of the query, newest first. XML escapes as HTML does, so the
/// document is written with the same escaping `Markup`; each item's description is HTML written the same way and
/// then escaped once more as the text of `<description>`, as RSS carries HTML.
struct SearchFeedView: Sendable {
    let title: String
    /// The Search page of the query, and the feed itself: absolute, as feeds are read elsewhere.
    let pageURL: String
    let feedURL: String
    let summary: String
    let items: [Item]
    /// The newest item's time, as `Last-Modified` gives it too; nil without items.
    let newest: Date?

    struct Item: Sendable {
        let title: String
        let link: String
        /// Network and id: the same post is the same item, however its text or permalink is shown.
        let guid: String
        /// Nil for the item that explains a problem: its text is all there is, so the feed stays the same (and 304s).
        let published: String?
        let author: String
        let description: String
    }

    init(query: String, posts: [Post], sourceNames: [String]?, address: SiteAddress) {
        let from = sourceNames.map { " from " + $0.joined(separator: ", ") } ?? ""
        self.init(
            query: query, sourceNames: sourceNames, address: address,
            summary: "The newest posts for “\(query)”\(from), as Smashtag finds them.",
            items: posts.map { Item($0, address: address) },
            newest: posts.map(\.created).max())
    }

    /// A feed of one item that says why the query gives no posts: feed readers show items, not error pages.
    init(query: String, problem: String, address: SiteAddress) {
        let page = address.absolute(SiteURL.searchRoot(query: query).path)
        let item = Item(
            title: "This search cannot run", link: page, guid: "smashtag:problem:" + query,
            published: nil, author: "Smashtag", description: Markup("<p>\(problem)</p>").text)
        self.init(
            query: query, sourceNames: nil, address: address, summary: "This search cannot run: \(problem)",
            items: [item], newest: nil)
    }

    private init(
        query: String, sourceNames: [String]?, address: SiteAddress, summary: String, items: [Item], newest: Date?
    ) {
        title = query + " · Smashtag"
        pageURL = address.absolute(SiteURL.searchRoot(query: query).path)
        feedURL = address.absolute(SiteURL.feed(query: query, sources: sourceNames).path)
        (self.summary, self.items, self.newest) = (summary, items, newest)
    }

    var document: HTMLWriter {
        var xml = HTMLWriter(capacity: 16_384)
        xml.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
              <title>\(title)</title>
              <link>\(pageURL)</link>
              <description>\(summary)</description>
              <atom:link href="\(feedURL)" rel="self" type="application/rss+xml"/>
              <ttl>15</ttl>

            """)
        if let newest { xml.append("  <lastBuildDate>\(UTCTime(newest).rfc822)</lastBuildDate>\n") }
        for item in items {
            xml.append(
                """
                  <item>
                    <title>\(item.title)</title>
                    <link>\(item.link)</link>
                    <guid isPermaLink="false">\(item.guid)</guid>

                """)
            if let published = item.published { xml.append("    <pubDate>\(published)</pubDate>\n") }
            xml.append(
                """
                    <dc:creator>\(item.author)</dc:creator>
                    <description>\(item.description)</description>
                  </item>

                """)
        }
        xml.append("</channel>\n</rss>\n")
        return XMLCharacters.replacingInvalid(xml)
    }
}

/// XML 1.0 allows no control characters but tab and line breaks, and not U+FFFE or U+FFFF, even escaped; posts
/// may hold them (HTML tolerates them), and one would make a feed reader reject the whole feed. Each becomes U+FFFD.
/// On the UTF-8 bytes: a byte below 0x80 is never part of a longer sequence.
enum XMLCharacters {
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    static func replacingInvalid(_ writer: HTMLWriter) -> HTMLWriter {
        let bytes = writer.bytes
        guard bytes.contains(where: isSuspect) else { return writer }
        var clean = HTMLWriter(capacity: bytes.count + 64)
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x20, ![0x09, 0x0A, 0x0D].contains(bytes[index]) {
                clean.append(bytes: replacement)
                index += 1
            } else if bytes[index] == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE
            {
                clean.append(bytes: replacement)
                index += 3
            } else {
                clean.append(bytes: bytes[index...index])
                index += 1
            }
        }
        return clean
    }

    private static func isSuspect(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0xEF
    }
}

extension SearchFeedView.Item {
    init(_ post: Post, address: SiteAddress) {
        title = post.contentWarning.map { "CW: " + $0 } ?? Self.firstLine(of: post)
        link = SafeURL.link(post.url) ?? address.absolute(SiteURL.post(.search, post.key, back: nil).path)
        guid = post.key.description
        published = UTCTime(post.created).rfc822
        author = "\(post.author.name) (@\(post.author.handle))"
        description = FeedItemHTML(post, address: address).text
    }

    /// The text's first line, cut at a word near 80 characters; who posted it when the post has no text.
    private static func firstLine(of post: Post) -> String {
        let text = post.shownSegments.map(\.shown).joined()
        let line = text.split(whereSeparator: \.isNewline).first.map(\.collapsingSpaces) ?? ""
        guard !line.isEmpty else { return "Post by @" + post.author.handle }
        guard line.count > 80 else { return line }
        let cut = line.prefix(80)
        let shortened = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return shortened.hasSuffix("…") ? String(shortened) : shortened + "…"
    }
}

/// An item's description: the post as HTML, its mentions linked (a hashtag or user to its search on this server, a
/// link to where it goes), then its quote, images (with their sizes) and link preview.
struct FeedItemHTML {
    private var html = HTMLWriter(capacity: 1024)
    private let address: SiteAddress

    var text: String { String(decoding: html.bytes, as: UTF8.self) }

    init(_ post: Post, address: SiteAddress) {
        self.address = address
        if let by = post.repostedBy { append("<p>\(post.network.repostVerb.capitalized) by @\(by.handle)</p>") }
        if let replying = post.replyingTo { append("<p>\(replying.sentence)</p>") }
        if let warning = post.contentWarning { append("<details><summary>\(warning)</summary>") }
        appendText(post.shownSegments)
        if let quoted = post.quoted {
            append("<blockquote><p><strong>\(quoted.author.name)</strong> @\(quoted.author.handle)</p>")
            appendText(quoted.shownSegments)
            append("</blockquote>")
        }
        for media in MediaView.all(of: post, boxWidth: 600) {
            if let still = media.still {
                append(
                    "<p><img src=\"\(url: address.resolve(still))\" alt=\"\(media.name)\"\(media.box.attributes)></p>")
            }
            if let play = media.playURL { append("<p><a href=\"\(url: play)\">▶ Play: \(media.name)</a></p>") }
        }
        if let card = post.card, let url = SafeURL.link(card.url) {
            append("<p><a href=\"\(url: url)\">\(card.title.isEmpty ? url : card.title)</a></p>")
        }
        if post.contentWarning != nil { append("</details>") }
    }

    private mutating func append(_ piece: Markup) {
        html.append(piece)
    }

    private mutating func appendText(_ segments: [TextSegment]) {
        append("<p>")
        for segment in segments {
            if let mention = segment.mention, let href = href(mention) {
                append("<a href=\"\(url: href)\">\(segment.shown)</a>")
            } else {
                for (index, line) in segment.shown.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                {
                    append(index == 0 ? "\(String(line))" : "<br>\(String(line))")
                }
            }
        }
        append("</p>")
    }

    private func href(_ mention: Mention) -> String? {
        switch mention.kind {
        case .hashtag: address.absolute(SiteURL.searchRoot(query: MentionSearch.hashtag(mention.keyword)).path)
        case .user: address.absolute(SiteURL.searchRoot(query: MentionSearch.user(mention.keyword)).path)
        case .url: SafeURL.link(mention.expandedURL ?? mention.keyword)
        }
    }
}

/// Where this server is, as the request reached it: feeds need absolute links. The `Host` header is used only if
/// it looks like a host and port; `X-Forwarded-Proto: https` from a proxy in front makes the links `https`.
struct SiteAddress: Sendable {
    let base: String

    init(host: String?, forwardedProto: String?) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        let host = host.flatMap { !$0.isEmpty && $0.allSatisfy(allowed.contains) ? $0 : nil } ?? "127.0.0.1"
        base = (forwardedProto == "https" ? "https://" : "http://") + host
    }

    func absolute(_ path: String) -> String { base + path }

    /// A picture's address as a reader elsewhere can load it: this site's own paths made absolute.
    func resolve(_ url: String) -> String { url.hasPrefix("/") && !url.hasPrefix("//") ? absolute(url) : url }
}
