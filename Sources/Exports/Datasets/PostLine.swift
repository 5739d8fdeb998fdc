import AppStore
import Foundation
import Posts
import WireJSON

/// A post as a line of NDJSON: Smashtag's post JSON, as `/api/search` gives it (`Post`'s keys, sorted), with times
/// to the microsecond the network gave and `counted`, when it was first counted under the term. Written by hand into
/// one growing buffer: an export writes tens of thousands of lines a second.
enum PostLine {
    static func append(_ post: CountedPost, to json: inout JSONWriter) {
        write(post.post, counted: post.counted, key: nil, into: &json)
        json.newLine()
    }

    /// The keys in sorted order, as `PublicJSON` writes them.
    private static func write(_ post: Post, counted: Date?, key: String?, into json: inout JSONWriter) {
        json.beginObject(key)
        if let card = post.card { write(card, into: &json) }
        if let warning = post.contentWarning { json.member("contentWarning", warning) }
        if let counted { json.member("counted", WireDate.iso8601(counted)) }
        json.member("created", WireDate.iso8601(post.created))
        if post.displayStart > 0 { json.member("displayStart", post.displayStart) }
        json.member("id", post.id)
        if let reply = post.inReplyToID { json.member("inReplyToID", reply) }
        if let language = post.language { json.member("language", language) }
        json.beginArray("media")
        for item in post.media { write(item, into: &json) }
        json.endArray()
        json.beginArray("mentions")
        for mention in post.mentions { write(mention, into: &json) }
        json.endArray()
        json.member("network", post.network.rawValue)
        if let quoted = post.quoted { write(quoted, counted: nil, key: "quoted", into: &json) }
        if let quotedID = post.quotedID { json.member("quotedID", quotedID) }
        if let reposter = post.repostedBy { write(reposter, key: "retweetedBy", into: &json) }
        if post.isSensitive { json.member("sensitive", boolean: true) }
        json.member("text", post.text)
        json.member("url", post.url)
        write(post.author, key: "user", into: &json)
        json.endObject()
    }

    private static func write(_ author: Author, key: String, into json: inout JSONWriter) {
        json.beginObject(key)
        json.member("name", author.name)
        if let picture = author.profileImageURL { json.member("profileImageURL", picture) }
        json.member("screenName", author.handle)
        json.endObject()
    }

    private static func write(_ mention: Mention, into json: inout JSONWriter) {
        json.beginObject()
        if let display = mention.display { json.member("display", display) }
        json.member("end", mention.range.upperBound)
        if let url = mention.expandedURL { json.member("expandedURL", url) }
        json.member("keyword", mention.keyword)
        json.member("kind", mention.kind.rawValue)
        json.member("start", mention.range.lowerBound)
        json.endObject()
    }

    private static func write(_ item: MediaItem, into json: inout JSONWriter) {
        json.beginObject()
        if let alt = item.alt { json.member("alt", alt) }
        json.member("aspectRatio", number: item.aspectRatio.isFinite ? "\(item.aspectRatio)" : "0")
        if let duration = item.duration, duration.isFinite { json.member("duration", number: "\(duration)") }
        json.member("kind", item.kind.rawValue)
        if let play = item.playURL { json.member("playURL", play) }
        json.member("url", item.url)
        json.endObject()
    }

    private static func write(_ card: LinkCard, into json: inout JSONWriter) {
        json.beginObject("card")
        json.member("description", card.description)
        if let image = card.imageURL { json.member("imageURL", image) }
        json.member("title", card.title)
        json.member("url", card.url)
        json.endObject()
    }
}
