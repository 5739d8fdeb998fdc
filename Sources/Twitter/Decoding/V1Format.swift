import Posts
import WireJSON

/// X API v1.1 statuses; Twitter archive entries (the same shape, numbers as strings, no `user`); and the v1.1
/// entities Gnip Activity Streams carry.
enum V1Format {
    /// A status; the one it quotes (`quoted_status`, the retweeted status's for a retweet) is decoded into it, one
    /// level deep.
    static func tweet(_ status: JSONValue, author: Author? = nil, decodesQuote: Bool = true) throws -> Post {
        guard let raw = status["id_str"]?.nonEmptyString ?? status["id"]?.nonEmptyString else {
            throw FormatError("a status without an id")
        }
        let id = try WireTweet.checked(id: raw)
        let poster = user(status["user"]) ?? author ?? .unknown
        var wire = WireTweet(
            id: id, created: try WireTweet.created(status["created_at"], id: id),
            content: try content(status, user: poster))
        if let original = status["retweeted_status"], original.object != nil {
            wire = WireTweet(
                id: id, created: wire.created, content: try content(original, user: user(original["user"]) ?? .unknown),
                repostedBy: poster)
        }
        let shown = status["retweeted_status"].flatMap { $0.object == nil ? nil : $0 } ?? status
        wire.quotedID = shown["quoted_status_id_str"]?.nonEmptyString ?? status["quoted_status_id_str"]?.nonEmptyString
        if decodesQuote, let quoted = shown["quoted_status"], quoted.object != nil {
            wire.quoted = try? tweet(quoted, decodesQuote: false)
        }
        wire.inReplyToID = status["in_reply_to_status_id_str"]?.nonEmptyString
        wire.inReplyToUser = status["in_reply_to_screen_name"]?.nonEmptyString
        wire.language = shown["lang"]?.nonEmptyString ?? status["lang"]?.nonEmptyString
        return wire.tweet
    }

    /// The text with the most content: streaming's `extended_tweet`, then extended mode's `full_text`, then `text`.
    private static func content(_ status: JSONValue, user: Author) throws -> TweetContent {
        let extended = status["extended_tweet"]
        let source = extended?["full_text"] != nil ? extended : status
        guard let text = source?["full_text"]?.string ?? source?["text"]?.string else {
            throw FormatError("status \(status["id_str"]?.string ?? "") has no text")
        }
        var content = content(
            text: text, entities: source?["entities"], extendedEntities: source?["extended_entities"], user: user)
        content.text.isReply = status["in_reply_to_status_id_str"]?.nonEmptyString != nil
        content.text.displayStart = source?["display_text_range"]?.array?.first?.int
        return content
    }

    static func content(text: String, entities: JSONValue?, extendedEntities: JSONValue?, user: Author) -> TweetContent
    {
        let media = (extendedEntities?["media"] ?? entities?["media"])?.array ?? []
        let wire = WireText(
            escapedText: text, entities: self.entities(entities), mediaLinks: media.compactMap { $0["url"]?.string })
        return TweetContent(author: user, text: wire, media: media.compactMap(mediaItem))
    }

    static func user(_ json: JSONValue?) -> Author? {
        guard let json, let handle = json["screen_name"]?.nonEmptyString else { return nil }
        return Author(
            handle: handle, name: json["name"]?.string ?? handle,
            profileImageURL: json["profile_image_url_https"]?.nonEmptyString
                ?? json["profile_image_url"]?.nonEmptyString
        )
    }

    private static func entities(_ entities: JSONValue?) -> [WireEntity] {
        guard let entities else { return [] }
        let hashtags = entities["hashtags"]?.array?.compactMap {
            entity($0, .hashtag, token: $0["text"].map { "#" + ($0.string ?? "") })
        }
        let users = entities["user_mentions"]?.array?.compactMap {
            entity($0, .user, token: $0["screen_name"].map { "@" + ($0.string ?? "") })
        }
        let urls = entities["urls"]?.array?.compactMap {
            entity(
                $0, .url, token: $0["url"]?.string, expanded: $0["expanded_url"]?.nonEmptyString,
                display: $0["display_url"]?.nonEmptyString)
        }
        return (hashtags ?? []) + (users ?? []) + (urls ?? [])
    }

    private static func entity(
        _ json: JSONValue, _ kind: Mention.Kind, token: String?, expanded: String? = nil, display: String? = nil
    ) -> WireEntity? {
        guard let token, let indices = json["indices"]?.array, indices.count == 2 else { return nil }
        return WireEntity(
            kind: kind, start: indices[0].int, end: indices[1].int, token: token, expandedURL: expanded,
            display: display)
    }

    /// Aspect ratio from the large size: `thumb` is a square crop, and `original_info` is missing from older data.
    /// A video or GIF plays its best MP4 (`video_info`); the description is `ext_alt_text`.
    private static func mediaItem(_ json: JSONValue) -> MediaItem? {
        guard let url = json["media_url_https"]?.nonEmptyString ?? json["media_url"]?.nonEmptyString else { return nil }
        let size = json["sizes"]?["large"] ?? json["sizes"]?["medium"]
        let width = size?["w"]?.double ?? json["original_info"]?["width"]?.double
        let height = size?["h"]?.double ?? json["original_info"]?["height"]?.double
        let video = json["video_info"]
        return MediaItem(
            url: url, aspectRatio: aspectRatio(width, height), kind: .init(wireType: json["type"]?.string),
            playURL: XVariants.bestMP4(video?["variants"]), alt: json["ext_alt_text"]?.string,
            duration: video?["duration_millis"]?.double.map { $0 / 1000 })
    }

    /// Width over height; 0 when the data gives no usable size, so the page sizes the box when the image loads.
    static func aspectRatio(_ width: Double?, _ height: Double?) -> Double {
        guard let width, let height, width > 0, height > 0 else { return 0 }
        return width / height
    }
}
