/// A picture, video, looping GIF or sound attached to a post, as its network gives it.
///
/// `url` is always a still to show (a photo itself, a video's poster); what plays is `playURL`: an MP4 (Mastodon, X),
/// an HLS playlist (Bluesky's `.m3u8`) or an audio file. Only `https` addresses play: a medium whose play address
/// is anything else (plain `http` too, which a secure page would refuse to load) is shown as its still.
public struct MediaItem: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case photo
        case video
        /// A short silent loop (Mastodon's `gifv`, X's `animated_gif`): MP4, played muted and looping.
        case gifv
        case audio

        /// A kind as stored or decoded by an earlier release, which spelled the loop as X does.
        public init(storedName: String) {
            self = Kind(rawValue: storedName) ?? (storedName == "animated_gif" ? .gifv : .photo)
        }

        public init(from decoder: any Decoder) throws {
            self.init(storedName: try decoder.singleValueContainer().decode(String.self))
        }
    }

    /// The longest description kept: Mastodon's limit, the largest of the networks' (Bluesky's is 10,000 bytes,
    /// X's 1,000 characters).
    public static let altLimit = 1_500

    public let url: String
    /// Width over height, so a page can reserve the image's space before it loads; 0 when the source does not say.
    public let aspectRatio: Double
    public let kind: Kind
    /// What plays, for a video, a loop or a sound; nil for a photo, and for media whose network gave no `https`
    /// address to play (shown as a still).
    public let playURL: String?
    /// The description the poster wrote for people who cannot see it (Mastodon `description`, Bluesky `alt`, X
    /// `ext_alt_text`/`alt_text`); nil when there is none.
    public let alt: String?
    /// Seconds, where the network gives them.
    public let duration: Double?

    public init(
        url: String, aspectRatio: Double, kind: Kind = .photo, playURL: String? = nil, alt: String? = nil,
        duration: Double? = nil
    ) {
        self.url = url
        self.aspectRatio = aspectRatio
        self.kind = kind
        self.playURL = kind == .photo ? nil : playURL.flatMap { $0.lowercased().hasPrefix("https://") ? $0 : nil }
        self.alt = Self.description(alt)
        self.duration = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// Whether a page can play it (a video, loop or sound with an `https` address to play).
    public var isPlayable: Bool { playURL != nil }

    /// The description as kept: whitespace at the ends gone, nothing for an empty one, cut at `altLimit`
    /// characters.
    private static func description(_ text: String?) -> String? {
        guard let text, let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return nil }
        let trimmed = text[first...last]
        return String(trimmed.count > altLimit ? trimmed.prefix(altLimit) : trimmed)
    }
}
