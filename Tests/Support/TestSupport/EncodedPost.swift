import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A post's public JSON as `JSONEncoder` spells it (through `PublicJSON`): the tests' oracle for the one writer the
/// product has (`JSONWriter.writePublic`), written independently of it, member by member, as `Codable` would.
public struct EncodedPost: Encodable {
    let post: Post

    public init(_ post: Post) {
        self.post = post
    }

    private enum Keys: String, CodingKey {
        case network, id, created, text, mentions, media, quotedID, quoted, inReplyToID, inReplyToUser, displayStart,
            contentWarning, card, url, language, user, retweetedBy, sensitive
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(post.network, forKey: .network)
        try container.encode(post.id, forKey: .id)
        try container.encode(post.created, forKey: .created)
        try container.encode(post.author, forKey: .user)
        try container.encode(post.text, forKey: .text)
        try container.encode(post.mentions, forKey: .mentions)
        try container.encode(post.media, forKey: .media)
        try container.encodeIfPresent(post.repostedBy, forKey: .retweetedBy)
        try container.encodeIfPresent(post.quotedID, forKey: .quotedID)
        try container.encodeIfPresent(post.quoted.map(EncodedPost.init), forKey: .quoted)
        try container.encodeIfPresent(post.inReplyToID, forKey: .inReplyToID)
        try container.encodeIfPresent(post.inReplyToUser, forKey: .inReplyToUser)
        if post.displayStart > 0 { try container.encode(post.displayStart, forKey: .displayStart) }
        try container.encodeIfPresent(post.contentWarning, forKey: .contentWarning)
        if post.isSensitive { try container.encode(true, forKey: .sensitive) }
        try container.encodeIfPresent(post.card, forKey: .card)
        try container.encode(post.url, forKey: .url)
        try container.encodeIfPresent(post.language, forKey: .language)
    }
}
