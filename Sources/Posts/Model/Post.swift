#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A tweet as Smashtag shows it: exact, unescaped text with its mentions and images.
///
/// For a retweet, `id` and `created` are the retweet's own (it is what was fetched and what pages are ordered by),
/// while the content — `user`, `text`, `mentions`, `media` — is the original's, as Twitter itself shows a retweet;
/// `retweetedBy` says who retweeted it.
public struct Post: Sendable, Hashable, Codable, Identifiable {
    public let id: String
    public let created: Date
    public let user: Author
    /// Unescaped text: `&amp;` in the wire format is `&` here.
    public let text: String
    /// Hashtags, user mentions and links, in text order, non-overlapping.
    public let mentions: [Mention]
    public let media: [MediaItem]
    public let retweetedBy: Author?
    public let quotedID: String?
    public let inReplyToID: String?

    public init(
        id: String, created: Date, user: Author, text: String, mentions: [Mention] = [], media: [MediaItem] = [],
        retweetedBy: Author? = nil, quotedID: String? = nil, inReplyToID: String? = nil
    ) {
        self.id = id
        self.created = created
        self.user = user
        self.text = text
        self.mentions = mentions
        self.media = media
        self.retweetedBy = retweetedBy
        self.quotedID = quotedID
        self.inReplyToID = inReplyToID
    }
}
