#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A post as Smashtag shows it, whatever network it comes from: exact, unescaped text with its mentions and images.
///
/// For a repost (a retweet, a boost), `id` and `created` are the repost's own (it is what was fetched and what pages
/// are ordered by), while the content — `user`, `text`, `mentions`, `media` — is the original's, as the networks
/// themselves show a repost; `repostedBy` says who reposted it.
public struct Post: Sendable, Hashable, Identifiable {
    public let network: Network
    /// The network's own id: digits on X and Mastodon, an `at://` URI on Bluesky.
    public let id: String
    public let created: Date
    public let user: Author
    /// Unescaped text: `&amp;` in the wire format is `&` here.
    public let text: String
    /// Hashtags, user mentions and links, in text order, non-overlapping.
    public let mentions: [Mention]
    public let media: [MediaItem]
    public let repostedBy: Author?
    public let quotedID: String?
    public let inReplyToID: String?
    /// Where the text people see begins, in code points: after a reply's leading `@names`, which X shows above the
    /// text as "Replying to …" (they stay mentions, listed under Users); 0 for every other post.
    public let displayStart: Int
    /// The author's warning (Mastodon's `spoiler_text`): the text is shown only when asked for.
    public let contentWarning: String?
    /// Media the author marked sensitive: shown blurred until tapped.
    public let isSensitive: Bool
    /// The preview of a link the post carries, when the network attached one.
    public let card: LinkCard?
    /// The post's address on its network (its permalink): from the data, or derived from the id when the data has
    /// none (X's tweets).
    public let url: String
    /// The quoted post when the data includes it (an array because a struct cannot hold itself directly).
    private let quotedPosts: [Post]

    public init(
        network: Network = .twitter, id: String, created: Date, user: Author, text: String,
        mentions: [Mention] = [], media: [MediaItem] = [], repostedBy: Author? = nil,
        quotedID: String? = nil, quoted: Post? = nil, inReplyToID: String? = nil, displayStart: Int = 0,
        contentWarning: String? = nil, isSensitive: Bool = false, card: LinkCard? = nil, url: String? = nil
    ) {
        self.network = network
        self.id = id
        self.created = created
        self.user = user
        self.text = text
        self.mentions = mentions
        self.media = media
        self.repostedBy = repostedBy
        self.quotedID = quotedID ?? quoted?.id
        self.quotedPosts = quoted.map { [$0] } ?? []
        self.inReplyToID = inReplyToID
        self.displayStart = max(0, displayStart)
        self.contentWarning = contentWarning
        self.isSensitive = isSensitive
        self.card = card
        self.url = url ?? network.permalink(id: id, author: user.screenName)
    }

    /// The quoted post, when the data includes it; `quotedID` alone when it does not.
    public var quoted: Post? { quotedPosts.first }

    /// The post's identity across networks.
    public var key: PostKey { PostKey(network: network, id: id) }
}

/// A post's identity: its network and its id there.
public struct PostKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public let network: Network
    public let id: String

    public init(network: Network, id: String) {
        self.network = network
        self.id = id
    }

    public var description: String { "\(network.rawValue):\(id)" }

    /// As `description` writes it; an id alone is a tweet's, as earlier releases wrote it.
    public init?(_ text: some StringProtocol) {
        guard let colon = text.firstIndex(of: ":") else {
            guard !text.isEmpty else { return nil }
            self.init(network: .twitter, id: String(text))
            return
        }
        guard let network = Network(rawValue: String(text[..<colon])) else { return nil }
        let id = text[text.index(after: colon)...]
        guard !id.isEmpty else { return nil }
        self.init(network: network, id: String(id))
    }
}

extension Network {
    /// Where a post is shown when its data gives no address: X's address works for every tweet id.
    fileprivate func permalink(id: String, author: String) -> String {
        switch self {
        case .twitter: "https://x.com/i/status/\(id)"
        case .mastodon: "https://\(author.split(separator: "@").last ?? "")/@\(author.split(separator: "@").first ?? "")/\(id)"
        case .bluesky: "https://bsky.app/profile/\(author)/post/\(id.split(separator: "/").last ?? "")"
        }
    }
}
