#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A tweet written straight to JSON in its `Codable` form (so `JSONDecoder` reads it back equal), without
/// `JSONEncoder`: storing a page of fetched tweets was nine tenths of the cost of counting it.
extension Post {
    package var codableJSON: String {
        var json = JSONWriter()
        json.beginObject()
        json.member("id", id)
        // JSONEncoder's default date strategy: seconds since 2001-01-01, as a Double.
        json.member("created", number: "\(created.timeIntervalSinceReferenceDate)")
        json.write(user, as: "user")
        json.member("text", text)
        json.beginArray("mentions")
        for mention in mentions { json.write(mention) }
        json.endArray()
        json.beginArray("media")
        for item in media { json.write(item) }
        json.endArray()
        if let retweetedBy { json.write(retweetedBy, as: "retweetedBy") }
        if let quotedID { json.member("quotedID", quotedID) }
        if let inReplyToID { json.member("inReplyToID", inReplyToID) }
        json.endObject()
        return json.output.string
    }
}

extension JSONWriter {
    fileprivate mutating func write(_ user: Author, as key: String) {
        beginObject(key)
        member("screenName", user.screenName)
        member("name", user.name)
        if let url = user.profileImageURL { member("profileImageURL", url) }
        endObject()
    }

    fileprivate mutating func write(_ mention: Mention) {
        beginObject()
        member("kind", mention.kind.rawValue)
        member("keyword", mention.keyword)
        member("start", mention.range.lowerBound)
        member("end", mention.range.upperBound)
        if let url = mention.expandedURL { member("expandedURL", url) }
        endObject()
    }

    fileprivate mutating func write(_ item: MediaItem) {
        beginObject()
        member("url", item.url)
        member("aspectRatio", number: item.aspectRatio.isFinite ? "\(item.aspectRatio)" : "1")
        member("kind", item.kind.rawValue)
        endObject()
    }
}
