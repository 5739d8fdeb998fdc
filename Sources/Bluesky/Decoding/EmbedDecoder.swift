import Posts
import WireJSON

/// What a post's embed view shows: images (`images#view`, or the media of `recordWithMedia#view`) with their
/// aspect ratios and descriptions, a video (its HLS playlist, its thumbnail as the still), and the quoted post
/// (`record#view`).
enum EmbedDecoder {
    static func media(in embed: JSONValue?) -> [MediaItem] {
        guard let embed else { return [] }
        switch kind(of: embed) {
        case "images": return (embed["images"]?.array ?? []).compactMap(image)
        case "video": return video(embed).map { [$0] } ?? []
        case "recordWithMedia": return media(in: embed["media"])
        default: return []
        }
    }

    /// An external embed's preview (also beside a quote, in `recordWithMedia`); only `http(s)` links.
    static func card(in embed: JSONValue?) -> LinkCard? {
        guard let embed else { return nil }
        switch kind(of: embed) {
        case "external":
            let external = embed["external"]
            return LinkCard(
                checking: external?["uri"]?.string, title: external?["title"]?.string,
                description: external?["description"]?.string, imageURL: external?["thumb"]?.string)
        case "recordWithMedia": return card(in: embed["media"])
        default: return nil
        }
    }

    /// The quoted post's URI, and its view when the quote can be shown (not deleted, blocked or detached).
    static func quote(in embed: JSONValue?) -> (uri: String, view: JSONValue?)? {
        guard let embed else { return nil }
        switch kind(of: embed) {
        case "record": return quotedRecord(embed["record"])
        case "recordWithMedia": return quotedRecord(embed["record"]?["record"])
        default: return nil
        }
    }

    /// `images` of `app.bsky.embed.images#view`.
    private static func kind(of embed: JSONValue) -> String {
        kind(of: embed, form: "#view")
    }

    /// An embed's kind (`images`, `record`, …) in one form: `#view` for a post view's, "" for a record's (blob
    /// references, as Jetstream sends them); "" for an embed of the other form or an unknown type.
    static func kind(of embed: JSONValue, form: String) -> String {
        let type = embed["$type"]?.string ?? ""
        guard type.hasPrefix("app.bsky.embed."), type.hasSuffix(form) else { return "" }
        let name = type.dropFirst("app.bsky.embed.".count).dropLast(form.count)
        return name.contains("#") ? "" : String(name)
    }

    private static func quotedRecord(_ record: JSONValue?) -> (uri: String, view: JSONValue?)? {
        guard let record, let uri = record["uri"]?.nonEmptyString, uri.contains("/app.bsky.feed.post/") else {
            return nil
        }
        let isPost = record["value"]?["$type"]?.string == "app.bsky.feed.post" && record["author"] != nil
        return (uri, isPost ? record : nil)
    }

    private static func image(_ json: JSONValue) -> MediaItem? {
        guard let url = WebLink.http((json["fullsize"] ?? json["thumb"])?.string) else { return nil }
        return MediaItem(
            url: url, aspectRatio: aspectRatio(json["aspectRatio"]), kind: .photo, alt: json["alt"]?.string)
    }

    /// `video#view`: the HLS playlist to play and its thumbnail as the still.
    private static func video(_ json: JSONValue) -> MediaItem? {
        video(still: WebLink.http(json["thumbnail"]?.string), playlist: json["playlist"]?.string, of: json)
    }

    /// A video (a loop when `presentation` says `gif`, as Bluesky's app then plays it), from a view or a record.
    static func video(still: String?, playlist: String?, of json: JSONValue) -> MediaItem? {
        let kind: MediaItem.Kind = json["presentation"]?.string == "gif" ? .gifv : .video
        let item = MediaItem(
            url: still ?? "", aspectRatio: aspectRatio(json["aspectRatio"]), kind: kind,
            playURL: playlist, alt: json["alt"]?.string)
        return item.url.isEmpty && !item.isPlayable ? nil : item
    }

    /// Width over height; 0 when the post does not say, so the page sizes the box when the image loads.
    static func aspectRatio(_ json: JSONValue?) -> Double {
        guard let width = json?["width"]?.double, let height = json?["height"]?.double, width > 0, height > 0 else {
            return 0
        }
        return width / height
    }
}

/// Labels that hide a post behind a warning and blur its media: the author's self-labels and moderation labels
/// (a label negated by its labeler no longer counts).
struct LabelWarning {
    private static let names: [(value: String, sentence: String)] = [
        ("porn", "Adult content"), ("sexual", "Sexually suggestive"), ("nudity", "Non-sexual nudity"),
        ("graphic-media", "Graphic media"), ("gore", "Graphic media"), ("!warn", "Content warning"),
    ]

    /// "Adult content", "Graphic media", …: one per kind, joined; nil when no label calls for a warning.
    let sentence: String?

    init(selfLabels: JSONValue?, labels: JSONValue?) {
        var values = Set((selfLabels?["values"]?.array ?? []).compactMap { $0["val"]?.string })
        for label in labels?.array ?? [] {
            guard let value = label["val"]?.string else { continue }
            if case .bool(true) = label["neg"] { values.remove(value) } else { values.insert(value) }
        }
        var sentences: [String] = []
        for (value, sentence) in Self.names where values.contains(value) && !sentences.contains(sentence) {
            sentences.append(sentence)
        }
        sentence = sentences.isEmpty ? nil : sentences.joined(separator: ", ")
    }
}
