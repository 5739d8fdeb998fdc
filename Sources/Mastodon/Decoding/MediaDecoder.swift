import Posts

/// A media attachment as an image to show: a photo itself, a video or GIF by its still preview. Audio and unknown
/// attachments have no image. The aspect ratio is the original's (`meta.original`), else the preview's.
enum MediaDecoder {
    static func item(_ attachment: JSONValue) -> MediaItem? {
        let kind: MediaItem.Kind
        let address: String?
        switch attachment["type"]?.string {
        case "image":
            (kind, address) = (.photo, attachment["url"]?.nonEmptyString ?? attachment["preview_url"]?.nonEmptyString)
        case "gifv": (kind, address) = (.animatedGIF, attachment["preview_url"]?.nonEmptyString)
        case "video": (kind, address) = (.video, attachment["preview_url"]?.nonEmptyString)
        default: return nil
        }
        guard let address, WebLink.isHTTP(address) else { return nil }
        return MediaItem(url: address, aspectRatio: aspectRatio(attachment["meta"]), kind: kind)
    }

    /// Width over height; 0 when the server does not say, so the page sizes the box when the image loads.
    private static func aspectRatio(_ meta: JSONValue?) -> Double {
        for size in ["original", "small"] {
            guard let dimensions = meta?[size] else { continue }
            if let width = dimensions["width"]?.double, let height = dimensions["height"]?.double, width > 0, height > 0 {
                return width / height
            }
            if let aspect = dimensions["aspect"]?.double, aspect > 0, aspect.isFinite { return aspect }
        }
        return 0
    }
}
