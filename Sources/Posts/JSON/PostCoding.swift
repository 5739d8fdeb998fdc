#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The stored form of a post. Keys a post lacks are left out, and every key added since tweets were first stored
/// has a default, so what an earlier release stored (X tweets, `retweetedBy`) still reads.
extension Post: Codable {
    enum CodingKeys: String, CodingKey {
        case network, id, created, text, mentions, media, quotedID, quoted, inReplyToID, displayStart, contentWarning,
            card, url, language
        case author = "user"
        case repostedBy = "retweetedBy"
        case isSensitive = "sensitive"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            network: try container.decodeIfPresent(Network.self, forKey: .network) ?? .twitter,
            id: try container.decode(String.self, forKey: .id),
            created: try container.decode(Date.self, forKey: .created),
            author: try container.decode(Author.self, forKey: .author),
            text: try container.decode(String.self, forKey: .text),
            mentions: try container.decodeIfPresent([Mention].self, forKey: .mentions) ?? [],
            media: try container.decodeIfPresent([MediaItem].self, forKey: .media) ?? [],
            repostedBy: try container.decodeIfPresent(Author.self, forKey: .repostedBy),
            quotedID: try container.decodeIfPresent(String.self, forKey: .quotedID),
            quoted: try container.decodeIfPresent(Post.self, forKey: .quoted),
            inReplyToID: try container.decodeIfPresent(String.self, forKey: .inReplyToID),
            displayStart: try container.decodeIfPresent(Int.self, forKey: .displayStart) ?? 0,
            contentWarning: try container.decodeIfPresent(String.self, forKey: .contentWarning),
            isSensitive: try container.decodeIfPresent(Bool.self, forKey: .isSensitive) ?? false,
            card: try container.decodeIfPresent(LinkCard.self, forKey: .card),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            language: try container.decodeIfPresent(String.self, forKey: .language)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(network, forKey: .network)
        try container.encode(id, forKey: .id)
        try container.encode(created, forKey: .created)
        try container.encode(author, forKey: .author)
        try container.encode(text, forKey: .text)
        try container.encode(mentions, forKey: .mentions)
        try container.encode(media, forKey: .media)
        try container.encodeIfPresent(repostedBy, forKey: .repostedBy)
        try container.encodeIfPresent(quotedID, forKey: .quotedID)
        try container.encodeIfPresent(quoted, forKey: .quoted)
        try container.encodeIfPresent(inReplyToID, forKey: .inReplyToID)
        if displayStart > 0 { try container.encode(displayStart, forKey: .displayStart) }
        try container.encodeIfPresent(contentWarning, forKey: .contentWarning)
        if isSensitive { try container.encode(true, forKey: .isSensitive) }
        try container.encodeIfPresent(card, forKey: .card)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(language, forKey: .language)
    }
}
