import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A post written straight to JSON in its `Codable` form (so `JSONDecoder` reads it back equal), without
/// `JSONEncoder`: storing a page of fetched posts was nine tenths of the cost of counting it.
extension Post {
    package var codableJSON: String {
        var json = JSONWriter()
        json.write(self, as: nil)
        return json.output.string
    }
}

extension JSONWriter {
    fileprivate mutating func write(_ post: Post, as key: String?) {
        typealias Key = Post.CodingKeys
        beginObject(key)
        member(Key.network.stringValue, post.network.rawValue)
        member(Key.id.stringValue, post.id)
        // JSONEncoder's default date strategy: seconds since 2001-01-01, as a Double.
        member(Key.created.stringValue, number: "\(post.created.timeIntervalSinceReferenceDate)")
        write(post.author, as: Key.author.stringValue)
        member(Key.text.stringValue, post.text)
        beginArray(Key.mentions.stringValue)
        for mention in post.mentions { write(mention) }
        endArray()
        beginArray(Key.media.stringValue)
        for item in post.media { write(item) }
        endArray()
        writeOptionals(of: post)
        endObject()
    }

    private mutating func writeOptionals(of post: Post) {
        typealias Key = Post.CodingKeys
        if let repostedBy = post.repostedBy { write(repostedBy, as: Key.repostedBy.stringValue) }
        if let quotedID = post.quotedID { member(Key.quotedID.stringValue, quotedID) }
        if let quoted = post.quoted { write(quoted, as: Key.quoted.stringValue) }
        if let inReplyToID = post.inReplyToID { member(Key.inReplyToID.stringValue, inReplyToID) }
        if post.displayStart > 0 { member(Key.displayStart.stringValue, post.displayStart) }
        if let warning = post.contentWarning { member(Key.contentWarning.stringValue, warning) }
        if post.isSensitive { member(Key.isSensitive.stringValue, boolean: true) }
        if let card = post.card { write(card, as: Key.card.stringValue) }
        member(Key.url.stringValue, post.url)
        if let language = post.language { member(Key.language.stringValue, language) }
    }

    fileprivate mutating func write(_ author: Author, as key: String) {
        typealias Key = Author.CodingKeys
        beginObject(key)
        member(Key.handle.stringValue, author.handle)
        member(Key.name.stringValue, author.name)
        if let url = author.profileImageURL { member(Key.profileImageURL.stringValue, url) }
        endObject()
    }

    fileprivate mutating func write(_ mention: Mention) {
        beginObject()
        member("kind", mention.kind.rawValue)
        member("keyword", mention.keyword)
        member("start", mention.range.lowerBound)
        member("end", mention.range.upperBound)
        if let url = mention.expandedURL { member("expandedURL", url) }
        if let display = mention.display { member("display", display) }
        endObject()
    }

    fileprivate mutating func write(_ card: LinkCard, as key: String) {
        beginObject(key)
        member("url", card.url)
        member("title", card.title)
        member("description", card.description)
        if let imageURL = card.imageURL { member("imageURL", imageURL) }
        endObject()
    }

    fileprivate mutating func write(_ item: MediaItem) {
        beginObject()
        member("url", item.url)
        member("aspectRatio", number: item.aspectRatio.isFinite ? "\(item.aspectRatio)" : "1")
        member("kind", item.kind.rawValue)
        if let playURL = item.playURL { member("playURL", playURL) }
        if let alt = item.alt { member("alt", alt) }
        if let duration = item.duration { member("duration", number: "\(duration)") }
        endObject()
    }
}
