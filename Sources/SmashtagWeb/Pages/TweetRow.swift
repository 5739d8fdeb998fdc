import Foundation
import Smashtag
import Posts
import Twitter

/// A tweet as a row of a list: pre-formatted strings only, its text as segments so the template escapes each piece.
struct TweetRow: Sendable {
    let id: String
    let avatarURL: String?
    let initial: String
    let name: String
    let screenName: String
    let date: String
    let isoDate: String
    let repostedBy: String?
    let segments: [SegmentView]
    let imageCount: String?
    /// Only a tweet with mentions or images opens its Mentions page.
    let detailURL: String?

    init(_ tweet: Post, links: TweetLinks, now: Date = .now) {
        id = tweet.id
        avatarURL = tweet.user.profileImageURL.flatMap(SafeURL.image)
        initial = String(tweet.user.name.first ?? "?")
        name = tweet.user.name
        screenName = "@" + tweet.user.screenName
        date = RelativeDate.format(tweet.created, now: now)
        isoDate = UTCTime(tweet.created).iso8601
        repostedBy = tweet.repostedBy.map { "@" + $0.screenName }
        segments = tweet.segments.map(SegmentView.init)
        imageCount = tweet.media.isEmpty ? nil : tweet.media.count == 1 ? "1 image" : "\(tweet.media.count) images"
        let opens = !tweet.media.isEmpty || !tweet.mentions.isEmpty
        detailURL = opens ? links.url(tweet.key) : nil
    }
}

/// One run of tweet text for a template: plain text, or a mention with its kind.
struct SegmentView: Sendable {
    let text: String
    let mention: MentionView?

    init(_ segment: TextSegment) {
        text = segment.text
        mention = segment.mention.map { MentionView(text: segment.text, kind: $0.kind.rawValue) }
    }
}

/// A mention in tweet text: the template finds both fields on it directly.
struct MentionView: Sendable {
    let text: String
    let kind: String
}

/// Only `http` and `https` addresses (and this site's own paths) ever become links or images.
enum SafeURL {
    static func link(_ url: String) -> String? {
        hasPrefix(url, "https://") || hasPrefix(url, "http://") ? url : nil
    }

    /// Case-insensitively, on the bytes: lower-casing a whole address to look at its scheme cost more than the row.
    private static func hasPrefix(_ url: String, _ scheme: StaticString) -> Bool {
        let prefix = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
        return url.utf8.count >= prefix.count && zip(url.utf8, prefix).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    static func image(_ url: String) -> String? {
        link(url) ?? (url.hasPrefix("/") && !url.hasPrefix("//") ? url : nil)
    }
}

extension TweetRow {
    /// One `<li>`: a link to the Mentions page when the tweet has any, else a plain row.
    func write(to html: inout HTMLWriter) {
        html.append("<li class=\"tweet\" data-tweet-id=\"\(id)\">\n")
        if let detailURL { html.append("<a class=\"row\" href=\"\(url: detailURL)\">\n") } else { html.append("<div class=\"row\">\n") }
        if let avatarURL {
            html.append("  <img class=\"avatar\" src=\"\(url: avatarURL)\" alt=\"\" width=\"44\" height=\"44\" loading=\"lazy\">\n")
        } else {
            html.append("  <span class=\"avatar\" aria-hidden=\"true\">\(initial)</span>\n")
        }
        html.append("""
              <div class="body">
                <p class="who"><strong>\(name)</strong> <span class="dim">\(screenName) · <time datetime="\(isoDate)">\(date)</time></span></p>

            """)
        if let repostedBy { html.append("    <p class=\"dim small\">↻ retweeted by \(repostedBy)</p>\n") }
        html.append("    <p class=\"text\">")
        for segment in segments { segment.write(to: &html) }
        html.append("</p>\n")
        if let imageCount { html.append("    <p class=\"dim small\">▣ \(imageCount)</p>\n") }
        html.append("  </div>\n")
        if detailURL != nil { html.append("  <span class=\"chevron\" aria-hidden=\"true\">›</span>\n</a>\n") } else { html.append("</div>\n") }
        html.append("</li>\n")
    }
}

extension SegmentView {
    /// Plain text as text; a mention in a span coloured by its kind.
    func write(to html: inout HTMLWriter) {
        if let mention {
            html.append("<span class=\"m m-\(mention.kind)\" data-mention=\"\(mention.kind)\">\(mention.text)</span>")
        } else {
            html.append("\(text)")
        }
    }
}
