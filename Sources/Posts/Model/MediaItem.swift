/// An image of a tweet (a video or GIF is shown by its still image).
public struct MediaItem: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case photo
        case video
        case animatedGIF = "animated_gif"
    }

    public let url: String
    /// Width over height, so a page can reserve the image's space before it loads; 0 when the source does not say.
    public let aspectRatio: Double
    public let kind: Kind

    public init(url: String, aspectRatio: Double, kind: Kind = .photo) {
        self.url = url
        self.aspectRatio = aspectRatio
        self.kind = kind
    }
}
