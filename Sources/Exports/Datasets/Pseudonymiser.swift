import Crypto
import Posts
import Synchronization

/// Replaces the people in posts by keyed hashes before a dataset is shared: every author and reposter, and every
/// user mentioned — in the columns and inside the text — becomes `p_` and 16 hex digits of HMAC-SHA256 over the
/// lower-cased handle, under a secret kept in the data directory (`PseudonymKey`). The networks' handles cannot
/// collide (X's have neither dots nor `@`, Mastodon's are full addresses, Bluesky's domains or DIDs), so a user in a
/// popularity table maps as in the posts. The same person gets the same pseudonym in every export made with that
/// secret, and nobody without it can go back from a pseudonym to a handle (not even by hashing every known handle).
/// Names and pictures are dropped; links that name a person are rewritten without the name or left out
/// (`PersonLinks`); a Bluesky post's id, which holds its author's DID, carries the DID's pseudonym instead. The text
/// is not otherwise changed: it may still name or identify someone.
public struct Pseudonymiser: Sendable {
    private let key: SymmetricKey
    /// Pseudonyms made so far: the same few thousand people write most of a term's posts, and an HMAC costs more
    /// than the rest of a post's row.
    private let made = MadePseudonyms()

    public init(secret: [UInt8]) {
        key = SymmetricKey(data: secret)
    }

    /// The pseudonym of a handle (with or without its `@`) or a DID.
    public func pseudonym(of handle: some StringProtocol) -> String {
        let name = Substring(handle).drop { $0 == "@" }.lowercased()
        if let pseudonym = made[name] { return pseudonym }
        let code = HMAC<SHA256>.authenticationCode(for: Array(name.utf8), using: key)
        let pseudonym = "p_" + Hex.encode(code.prefix(8))
        made[name] = pseudonym
        return pseudonym
    }

    /// A popularity table's or a network's mention: a user's pseudonym, a hashtag as it is.
    public func mention(_ shown: String) -> String {
        shown.hasPrefix("@") ? "@" + pseudonym(of: shown) : shown
    }

    public func apply(to post: Post) -> Post {
        let links = PersonLinks(people: people(in: post))
        var text = PseudonymousText(post, displayStart: post.displayStart)
        for mention in post.mentions { text.replace(mention, with: replacement(for: mention, in: post, links)) }
        return Post(
            network: post.network, id: postID(post.id), created: post.created,
            author: author(post.author), text: text.text, mentions: text.mentions,
            media: post.media.map { media($0, links) },
            repostedBy: post.repostedBy.map(author),
            quotedID: post.quotedID.map(postID), quoted: post.quoted.map(apply),
            inReplyToID: post.inReplyToID.map(postID), inReplyToUser: post.inReplyToUser.map(pseudonym(of:)),
            displayStart: text.displayStart,
            contentWarning: post.contentWarning, isSensitive: post.isSensitive, card: card(post.card, links),
            url: post.network == .twitter ? "https://x.com/i/status/\(post.id)" : "", language: post.language,
            signedInOnly: post.signedInOnly)
    }

    /// What takes a mention's place: a user's pseudonym, a link without the person, or nothing.
    private func replacement(for mention: Mention, in post: Post, _ links: PersonLinks) -> PseudonymousText.Change {
        switch mention.kind {
        case .hashtag: return .keep
        case .user: return .replace(keyword: "@" + pseudonym(of: mention.keyword), url: nil)
        case .url:
            switch links.verdict(mention.expandedURL ?? mention.keyword) {
            case .keep: return .keep
            case .drop: return .remove
            case .rewrite(let link):
                // X's text holds a t.co address, which names nobody: only where it leads changes.
                let keyword = mention.keyword.lowercased().hasPrefix("https://t.co/") ? mention.keyword : link
                return .replace(keyword: keyword, url: link)
            }
        }
    }

    private func people(in post: Post) -> Set<String> {
        var people = Set(
            [post.author.handle, post.repostedBy?.handle, post.inReplyToUser].compactMap { $0?.lowercased() })
        for mention in post.mentions where mention.kind == .user { people.insert(mention.keyword.dropAt) }
        for id in [post.id, post.quotedID, post.inReplyToID].compactMap({ $0 }) {
            if let did = Self.did(in: id) { people.insert(did.lowercased()) }
        }
        return people.union(post.quoted.map(people(in:)) ?? [])
    }

    private func author(_ author: Author) -> Author {
        Author(handle: pseudonym(of: author.handle), name: "")
    }

    /// A Bluesky post's `at://DID/collection/key` with the DID's pseudonym; other networks' ids name nobody.
    private func postID(_ id: String) -> String {
        guard let did = Self.did(in: id) else { return id }
        return "at://" + pseudonym(of: did) + id.dropFirst(5 + did.count)
    }

    private func media(_ item: MediaItem, _ links: PersonLinks) -> MediaItem {
        MediaItem(
            url: links.names(item.url) ? "" : item.url, aspectRatio: item.aspectRatio, kind: item.kind,
            playURL: item.playURL.flatMap { links.names($0) ? nil : $0 }, alt: item.alt, duration: item.duration)
    }

    private func card(_ card: LinkCard?, _ links: PersonLinks) -> LinkCard? {
        guard let card else { return nil }
        let url: String
        switch links.verdict(card.url) {
        case .keep: url = card.url
        case .rewrite(let link): url = link
        case .drop: return nil
        }
        return LinkCard(
            url: url, title: card.title, description: card.description,
            imageURL: card.imageURL.flatMap { links.names($0) ? nil : $0 })
    }

    private static func did(in id: String) -> Substring? {
        guard id.hasPrefix("at://did:") else { return nil }
        return id.dropFirst(5).prefix { $0 != "/" }
    }
}

extension String {
    /// A user mention's handle: `@alice` → `alice`, lower-cased.
    fileprivate var dropAt: String { (hasPrefix("@") ? String(dropFirst()) : self).lowercased() }
}

/// The pseudonyms one `Pseudonymiser` has made, at most 100,000 (then it starts again: a bound, not a policy).
private final class MadePseudonyms: Sendable {
    private static let most = 100_000
    private let byName = Mutex<[String: String]>([:])

    subscript(name: String) -> String? {
        get { byName.withLock { $0[name] } }
        set {
            byName.withLock { byName in
                if byName.count >= Self.most { byName.removeAll(keepingCapacity: true) }
                byName[name] = newValue
            }
        }
    }
}
