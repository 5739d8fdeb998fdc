import Posts
import WireJSON

/// A media attachment as Mastodon shows it: a photo, a video or a `gifv` loop (MP4 at `url`, its still at
/// `preview_url`), or audio (MP3 and the like at `url`, no still). Unknown attachments are left out. The aspect ratio
/// is the original's (`meta.original`), else the preview's; the description is the attachment's `description`.
enum MediaDecoder {
    static func item(_ attachment: JSONValue) -> MediaItem? {
        let preview = attachment["preview_url"]?.nonEmptyString.flatMap(WebLink.http)
        let original = attachment["url"]?.nonEmptyString.flatMap(WebLink.http)
        let kind: MediaItem.Kind
        let still: String?
        switch attachment["type"]?.string {
        case "image": (kind, still) = (.photo, original ?? preview)
        case "gifv": (kind, still) = (.gifv, preview)
        case "video": (kind, still) = (.video, preview)
        case "audio": (kind, still) = (.audio, "")
        default: return nil
        }
        guard let still else { return nil }
        let item = MediaItem(
            url: still, aspectRatio: aspectRatio(attachment["meta"]), kind: kind,
            playURL: kind == .photo ? nil : original, alt: attachment["description"]?.string,
            duration: duration(attachment["meta"]))
        return item.url.isEmpty && !item.isPlayable ? nil : item  // a sound with nothing to play shows nothing
    }

    /// Width over height; 0 when the server does not say, so the page sizes the box when the image loads.
    private static func aspectRatio(_ meta: JSONValue?) -> Double {
        for size in ["original", "small"] {
            guard let dimensions = meta?[size] else { continue }
            if let width = dimensions["width"]?.double, let height = dimensions["height"]?.double, width > 0, height > 0
            {
                return width / height
            }
            if let aspect = dimensions["aspect"]?.double, aspect > 0, aspect.isFinite { return aspect }
        }
        return 0
    }

    private static func duration(_ meta: JSONValue?) -> Double? {
        meta?["original"]?["duration"]?.double ?? meta?["duration"]?.double
    }
}
