import Foundation
import Smashtag
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
    let retweetedBy: String?
    let segments: [SegmentView]
    let imageCount: String?
    /// Only a tweet with mentions or images opens its Mentions page.
    let detailURL: String?

    init(_ tweet: Tweet, tab: Tab, back: String, now: Date = .now) {
        id = tweet.id
        avatarURL = tweet.user.profileImageURL.flatMap(SafeURL.image)
        initial = String(tweet.user.name.first ?? "?")
        name = tweet.user.name
        screenName = "@" + tweet.user.screenName
        date = RelativeDate.format(tweet.created, now: now)
        isoDate = tweet.created.formatted(.iso8601)
        retweetedBy = tweet.retweetedBy.map { "@" + $0.screenName }
        segments = tweet.segments.map(SegmentView.init)
        imageCount = tweet.media.isEmpty ? nil : tweet.media.count == 1 ? "1 image" : "\(tweet.media.count) images"
        let opens = !tweet.media.isEmpty || !tweet.mentions.isEmpty
        detailURL = opens ? SiteURL.tweet(tab, id: tweet.id, back: back).path : nil
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
        let lower = url.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://") ? url : nil
    }

    static func image(_ url: String) -> String? {
        link(url) ?? (url.hasPrefix("/") && !url.hasPrefix("//") ? url : nil)
    }
}

/// "now", "5m", "3h", "2d", then the day: as tweet lists show it.
enum RelativeDate {
    static func format(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        case ..<(7 * 86_400): return "\(seconds / 86_400)d"
        default: return date.formatted(.dateTime.month(.abbreviated).day())
        }
    }
}
