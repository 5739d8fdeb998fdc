import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A post in its public JSON form, written by hand: the bytes `PublicJSON` gives for a `Post` (keys sorted, slashes
/// as they are, times as ISO-8601), at a fraction of `JSONEncoder`'s cost — `inspect --format json` writes tens of
/// thousands of posts a second, and an export as many. Only a number that is not finite differs: `0`, where
/// `JSONEncoder` would refuse the post.
extension JSONWriter {
    /// How times are written: whole seconds, as `PublicJSON` writes them, or to the microsecond the network gave
    /// (exports), and `counted` with them when a post has it.
    package enum PostTimes: Sendable {
        case wholeSeconds
        case microseconds(counted: Date?)
    }

    package mutating func writePublic(_ post: Post, times: PostTimes, key: String? = nil) {
        beginObject(key)
        if let card = post.card { writePublic(card) }
        if let warning = post.contentWarning { member("contentWarning", warning) }
        if case .microseconds(let counted?) = times { member("counted", WireDate.iso8601(counted)) }
        member("created", Self.time(post.created, times))
        if post.displayStart > 0 { member("displayStart", post.displayStart) }
        member("id", post.id)
        if let reply = post.inReplyToID { member("inReplyToID", reply) }
        if let replied = post.inReplyToUser { member("inReplyToUser", replied) }
        if let language = post.language { member("language", language) }
        beginArray("media")
        for item in post.media { writePublic(item) }
        endArray()
        beginArray("mentions")
        for mention in post.mentions { writePublic(mention) }
        endArray()
        member("network", post.network.rawValue)
        if post.notIndexable { member("notIndexable", boolean: true) }
        if let quoted = post.quoted { writePublic(quoted, times: times.withoutCounted, key: "quoted") }
        if let quotedID = post.quotedID { member("quotedID", quotedID) }
        if let reposter = post.repostedBy { writePublic(reposter, key: "retweetedBy") }
        if !post.seenOn.isEmpty {
            beginArray("seenOn")
            for server in post.seenOn { element(server) }
            endArray()
        }
        if post.isSensitive { member("sensitive", boolean: true) }
        if post.signedInOnly { member("signedInOnly", boolean: true) }
        member("text", post.text)
        member("url", post.url)
        writePublic(post.author, key: "user")
        endObject()
    }

    private static func time(_ date: Date, _ times: PostTimes) -> String {
        switch times {
        case .wholeSeconds: WireDate.iso8601WholeSeconds(date)
        case .microseconds: WireDate.iso8601(date)
        }
    }

    private mutating func writePublic(_ author: Author, key: String) {
        beginObject(key)
        member("name", author.name)
        if let picture = author.profileImageURL { member("profileImageURL", picture) }
        member("screenName", author.handle)
        endObject()
    }

    private mutating func writePublic(_ mention: Mention) {
        beginObject()
        if let display = mention.display { member("display", display) }
        member("end", mention.range.upperBound)
        if let url = mention.expandedURL { member("expandedURL", url) }
        member("keyword", mention.keyword)
        member("kind", mention.kind.rawValue)
        member("start", mention.range.lowerBound)
        endObject()
    }

    private mutating func writePublic(_ item: MediaItem) {
        beginObject()
        if let alt = item.alt { member("alt", alt) }
        member("aspectRatio", double: item.aspectRatio)
        if let duration = item.duration { member("duration", double: duration) }
        member("kind", item.kind.rawValue)
        if let play = item.playURL { member("playURL", play) }
        member("url", item.url)
        endObject()
    }

    private mutating func writePublic(_ card: LinkCard) {
        beginObject("card")
        member("description", card.description)
        if let image = card.imageURL { member("imageURL", image) }
        member("title", card.title)
        member("url", card.url)
        endObject()
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest digits, without a trailing `.0`.
    private mutating func member(_ key: String, double value: Double) {
        guard value.isFinite else { return member(key, number: "0") }
        let text = value.description
        member(key, number: text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }
}

extension JSONWriter.PostTimes {
    /// A quoted post is written with its own times, never the quoting post's `counted`.
    fileprivate var withoutCounted: Self {
        switch self {
        case .wholeSeconds: .wholeSeconds
        case .microseconds: .microseconds(counted: nil)
        }
    }
}
