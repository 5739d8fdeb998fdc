import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why one tweet-shaped object could not be read.
struct FormatError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }

    static func message(of error: any Error) -> String {
        (error as? FormatError)?.message ?? String(describing: error)
    }
}

/// What a tweet shows — author, text, images — as read off the wire. A retweet shows its original's content.
struct TweetContent: Sendable {
    let author: Author
    var text: WireText
    let media: [MediaItem]
}

/// The fields every format maps onto a `Post`.
struct WireTweet: Sendable {
    let id: String
    let created: Date
    let content: TweetContent
    var repostedBy: Author? = nil
    var quotedID: String? = nil
    /// The quoted tweet, when the data includes it.
    var quoted: Post? = nil
    var inReplyToID: String? = nil
    /// The author of the tweet it answers (`in_reply_to_screen_name`, or v2's `in_reply_to_user_id` in `includes`).
    var inReplyToUser: String? = nil
    /// The shown content's `lang` (X's guess, or `und`).
    var language: String? = nil

    var tweet: Post {
        let exact = ExactText(content.text)
        return Post(
            id: id, created: created, author: content.author, text: exact.text, mentions: exact.mentions,
            media: content.media, repostedBy: repostedBy, quotedID: quotedID, quoted: quoted, inReplyToID: inReplyToID,
            inReplyToUser: inReplyToUser ?? Self.firstLeadingName(exact), displayStart: exact.displayStart,
            language: language
        )
    }

    /// A reply's first leading `@name`, which X puts before the text shown: the author of the tweet it answers, where
    /// the data does not name them otherwise.
    private static func firstLeadingName(_ exact: ExactText) -> String? {
        exact.mentions.first { $0.kind == .user && $0.range.upperBound <= exact.displayStart }
            .map { String($0.keyword.dropFirst()) }
    }

    /// The id as read, once `TweetID`'s rule accepts it.
    static func checked(id: String) throws -> String {
        if let problem = TweetID.problem(with: id) { throw FormatError(problem) }
        return id
    }

    /// The tweet's date, or the one its Snowflake id carries when the response left `created_at` out.
    static func created<Node: JSONNode>(_ value: Node?, id: String) throws -> Date {
        if let text = value?.nonEmptyString {
            guard let date = TwitterDate.parse(text) else {
                throw FormatError("tweet \(id) has an unreadable date “\(text.excerpt())”")
            }
            return date
        }
        guard let date = TwitterDate.fromSnowflake(id) else { throw FormatError("tweet \(id) has no date") }
        return date
    }
}

extension MediaItem.Kind {
    /// X's `type`: `photo`, `video` or `animated_gif` (a loop, played as an MP4).
    init(wireType: String?) {
        self = wireType.map(Self.init(storedName:)) ?? .photo
    }
}

/// What plays of X's media: the best MP4 of a video's or a GIF's variants (v1.1 `video_info.variants` with
/// `bitrate`, v2 `variants` with `bit_rate`); X also lists an HLS playlist, which only Safari plays.
enum XVariants {
    static func bestMP4<Node: JSONNode>(_ variants: Node?) -> String? {
        let mp4 = variants?.array?.filter { $0["content_type"]?.string == "video/mp4" }
        let best = mp4?.max { bitrate($0) < bitrate($1) }
        return best?["url"]?.nonEmptyString
    }

    private static func bitrate<Node: JSONNode>(_ variant: Node) -> Double {
        (variant["bitrate"] ?? variant["bit_rate"])?.double ?? 0
    }
}
