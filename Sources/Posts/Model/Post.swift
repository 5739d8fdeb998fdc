#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A post as Smashtag shows it, whatever network it comes from: exact, unescaped text with its mentions and images.
///
/// For a repost (a retweet, a boost), `id` and `created` are the repost's own (it is what was fetched and what pages
/// are ordered by), while the content — `author`, `text`, `mentions`, `media` — is the original's, as the networks
/// themselves show a repost; `repostedBy` says who reposted it.
public struct Post: Sendable, Hashable, Identifiable {
    /// The fields live in one shared, immutable box: a post is copied many times per request (caches, pages, rows,
    /// tallies), and a copy then retains one reference instead of a dozen strings and arrays.
    private let fields: Fields

    public var network: Network { fields.values.network }
    /// The network's own id: digits on X and Mastodon, an `at://` URI on Bluesky.
    public var id: String { fields.values.id }
    public var created: Date { fields.values.created }
    public var author: Author { fields.values.author }
    /// Unescaped text: `&amp;` in the wire format is `&` here.
    public var text: String { fields.values.text }
    /// Hashtags, user mentions and links, in text order, non-overlapping.
    public var mentions: [Mention] { fields.values.mentions }
    public var media: [MediaItem] { fields.values.media }
    public var repostedBy: Author? { fields.values.repostedBy }
    public var quotedID: String? { fields.values.quotedID }
    public var inReplyToID: String? { fields.values.inReplyToID }
    /// The handle of the author of the post it answers, where the data says (X's `in_reply_to_user_id`, Mastodon's
    /// `in_reply_to_account_id`, a Bluesky parent by the same author or one the post mentions): who answers whom.
    public var inReplyToUser: String? { fields.values.inReplyToUser }
    /// Where the text people see begins, in code points: after a reply's leading `@names`, which X shows above the
    /// text as "Replying to …" (they stay mentions, listed under Users); 0 for every other post.
    public var displayStart: Int { fields.values.displayStart }
    /// The author's warning (Mastodon's `spoiler_text`): the text is shown only when asked for.
    public var contentWarning: String? { fields.values.contentWarning }
    /// Media the author marked sensitive: shown blurred until tapped.
    public var isSensitive: Bool { fields.values.isSensitive }
    /// The preview of a link the post carries, when the network attached one.
    public var card: LinkCard? { fields.values.card }
    /// The post's address on its network (its permalink): from the data, or derived from the id when the data has
    /// none (X's tweets).
    public var url: String { fields.values.url }
    /// The language the post is written in (a BCP 47 tag such as `en` or `pt-BR`), where its network says: X's
    /// `lang`, Mastodon's `language`, the first of Bluesky's `langs`. Nil when unknown (X's `und` too).
    public var language: String? { fields.values.language }
    /// The author has not opted in to search (Mastodon's `indexable: false`, the default there): the post is shown as
    /// a live search returns it and counted in aggregates, but its text, media and author are never kept or exported.
    public var notIndexable: Bool { fields.values.notIndexable }
    /// The author asks that only people signed in see their posts (Bluesky's `!no-unauthenticated` label): a visitor
    /// who is not signed in is never shown the post (`forVisitors`).
    public var signedInOnly: Bool { fields.values.signedInOnly }
    /// The servers that delivered the post when several servers of one network are asked as one (Mastodon's
    /// fleet): each server's host, the post's own server first when it was asked; empty for a post one server gave.
    public var seenOn: [String] { fields.values.seenOn }

    public init(
        network: Network = .twitter, id: String, created: Date, author: Author, text: String,
        mentions: [Mention] = [], media: [MediaItem] = [], repostedBy: Author? = nil,
        quotedID: String? = nil, quoted: Post? = nil, inReplyToID: String? = nil, inReplyToUser: String? = nil,
        displayStart: Int = 0,
        contentWarning: String? = nil, isSensitive: Bool = false, card: LinkCard? = nil, url: String? = nil,
        language: String? = nil, notIndexable: Bool = false, signedInOnly: Bool = false, seenOn: [String] = []
    ) {
        fields = Fields(
            Values(
                network: network, id: id, created: created, author: author, text: text, mentions: mentions,
                media: media,
                repostedBy: repostedBy, quotedID: quotedID ?? quoted?.id, quoted: quoted, inReplyToID: inReplyToID,
                inReplyToUser: inReplyToID == nil ? nil : inReplyToUser.flatMap { $0.isEmpty ? nil : $0 },
                displayStart: max(0, displayStart), contentWarning: contentWarning, isSensitive: isSensitive,
                card: card,
                url: url ?? network.permalink(id: id, author: author.handle),
                language: language.flatMap { $0.isEmpty || $0 == "und" ? nil : $0 }, notIndexable: notIndexable,
                signedInOnly: signedInOnly, seenOn: seenOn
            ))
    }

    public static func == (lhs: Post, rhs: Post) -> Bool {
        lhs.fields === rhs.fields || lhs.fields.values == rhs.fields.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.values)
    }

    /// The quoted post, when the data includes it; `quotedID` alone when it does not.
    public var quoted: Post? { fields.values.quoted }

    /// The post's identity across networks.
    public var key: PostKey { PostKey(network: network, id: id) }

    /// The same post, its people as they are known now (a profile resolved or renamed since it was stored, or its
    /// author asking for sign-in since: `signedInOnly` adds to what the post said, never takes it back).
    package func showing(author: Author, repostedBy: Author?, signedInOnly: Bool = false) -> Post {
        changing { values in
            (values.author, values.repostedBy) = (author, repostedBy)
            values.signedInOnly = values.signedInOnly || signedInOnly
        }
    }

    /// The same post under the ids a fleet of servers knows it by (`identify` gives an id's canonical form, nil to
    /// keep it): its own, the post it answers, the one it quotes; and the servers it was seen on.
    package func identified(by identify: (String) -> String?, seenOn servers: [String]) -> Post {
        changing { values in
            values.id = identify(values.id) ?? values.id
            values.inReplyToID = values.inReplyToID.map { identify($0) ?? $0 }
            values.quotedID = values.quotedID.map { identify($0) ?? $0 }
            values.quoted = values.quoted?.identified(by: identify, seenOn: [])
            values.seenOn = servers
        }
    }

    /// The post as a visitor who is not signed in may see it: nil when its author shows it only to people signed in,
    /// and without the post it quotes when that one's author does (its id stays, as for a quote the data omits).
    public var forVisitors: Post? {
        guard !signedInOnly else { return nil }
        guard let quoted, quoted.signedInOnly else { return self }
        return changing { $0.quoted = nil }
    }

    /// The same post with some of its values changed; the others stay as `init` made them.
    private func changing(_ change: (inout Values) -> Void) -> Post {
        var values = fields.values
        change(&values)
        return Post(fields: Fields(values))
    }

    private init(fields: Fields) {
        self.fields = fields
    }

    /// The post is what `withheld` leaves of one: nothing of it to show or export.
    public var isWithheld: Bool { notIndexable && url.isEmpty && author.handle.isEmpty }

    /// What may be kept of a post whose author has not opted in to search: its key and time, so it is counted once
    /// and no more, and the hashtags and users it named (without their places in a text it no longer has), so that
    /// what it added to the counts can be taken back exactly when it is deleted — no text, media, author or address.
    package var withheld: Post {
        Post(
            network: network, id: id, created: created, author: Author(handle: "", name: ""), text: "",
            mentions: mentions.filter { $0.kind != .url }.map {
                Mention(kind: $0.kind, keyword: $0.keyword, range: 0..<0)
            },
            url: "", notIndexable: true)
    }
}

extension Post {
    /// What a post is made of, compared and hashed field by field.
    fileprivate struct Values: Sendable, Hashable {
        var network: Network
        var id: String
        var created: Date
        var author: Author
        var text: String
        var mentions: [Mention]
        var media: [MediaItem]
        var repostedBy: Author?
        var quotedID: String?
        /// A post can hold the post it quotes because the values sit behind a reference.
        var quoted: Post?
        var inReplyToID: String?
        var inReplyToUser: String?
        var displayStart: Int
        var contentWarning: String?
        var isSensitive: Bool
        var card: LinkCard?
        var url: String
        var language: String?
        var notIndexable: Bool
        var signedInOnly: Bool
        var seenOn: [String]
    }

    fileprivate final class Fields: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
    }
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
        case .mastodon:
            "https://\(author.split(separator: "@").last ?? "")/@\(author.split(separator: "@").first ?? "")/\(id)"
        case .bluesky: "https://bsky.app/profile/\(author)/post/\(id.split(separator: "/").last ?? "")"
        }
    }
}
