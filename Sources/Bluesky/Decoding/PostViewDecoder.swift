import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Bluesky's post views (`app.bsky.feed.defs#postView`) as posts: the `at://` URI is the id, facets become mentions,
/// images come from the embed with their aspect ratios, a quoted post (`record#view`) is decoded into the post, and
/// self-labels and moderation labels become a content warning with the media blurred. A feed item with a
/// `#reasonRepost` keeps the repost's time and shows the original, `repostedBy` the reposter.
package enum PostViewDecoder {
    /// A post view, a feed item (`{post, reason}`) or a quoted `viewRecord`, or why it is not a post: one sentence.
    package static func post(from json: JSONValue) throws(BlueskyDecodingError) -> Post {
        guard let view = json["post"], view.object != nil else { return try post(view: json, quoteDepth: 0) }
        let post = try post(view: view, quoteDepth: 0)
        guard let reason = json["reason"], reason["$type"]?.string?.hasSuffix("#reasonRepost") == true,
            let reposter = author(reason["by"])
        else { return post }
        return post.reposted(
            by: reposter, at: date(reason["indexedAt"]) ?? post.created, id: reason["uri"]?.nonEmptyString)
    }

    private static func post(view: JSONValue, quoteDepth: Int) throws(BlueskyDecodingError) -> Post {
        guard let uri = view["uri"]?.nonEmptyString else { throw .missing("uri") }
        guard let record = view["record"] ?? view["value"], record.object != nil else {
            throw .invalid("record", uri: uri)
        }
        guard let text = record["text"]?.string else { throw .invalid("text", uri: uri) }
        guard let created = date(record["createdAt"]) ?? date(view["indexedAt"]) else {
            throw .invalid("createdAt", uri: uri)
        }
        guard let user = author(view["author"]) else { throw .invalid("author", uri: uri) }
        let embed = view["embed"] ?? view["embeds"]?.array?.first
        let quote = EmbedDecoder.quote(in: embed)
        let warning = LabelWarning(selfLabels: record["labels"], labels: view["labels"])
        return Post(
            network: .bluesky, id: uri, created: created, author: user, text: text,
            mentions: FacetText(text: text, facets: record["facets"]?.array ?? []).mentions,
            media: EmbedDecoder.media(in: embed),
            quotedID: quote?.uri,
            quoted: quoteDepth == 0 ? quote?.view.flatMap { try? post(view: $0, quoteDepth: 1) } : nil,
            inReplyToID: record["reply"]?["parent"]?["uri"]?.nonEmptyString,
            inReplyToUser: Self.ownThread(record, did: view["author"]?["did"]?.nonEmptyString) ? user.handle : nil,
            contentWarning: warning.sentence, isSensitive: warning.sentence != nil, card: EmbedDecoder.card(in: embed),
            url: Permalink.of(uri: uri, handle: user.handle), language: language(of: record),
            signedInOnly: AccountLabels.asksForSignIn(view["author"]?["labels"])
        )
    }

    /// Whether the post answers one by its own author (its parent's URI names the author's DID). Bluesky names a
    /// parent's author by DID alone, so whom a reply answers is known here only within an author's own thread.
    static func ownThread(_ record: JSONValue, did: String?) -> Bool {
        guard let did, let parent = record["reply"]?["parent"]?["uri"]?.nonEmptyString else { return false }
        return parent.hasPrefix("at://" + did + "/")
    }

    /// The first of the languages the author says the post is in (`langs`).
    static func language(of record: JSONValue) -> String? {
        record["langs"]?.array?.first?.nonEmptyString
    }

    /// A profile view's handle, display name (the handle when empty) and avatar.
    static func author(_ json: JSONValue?) -> Author? {
        guard let json, let handle = json["handle"]?.nonEmptyString else { return nil }
        let shown = handle == "handle.invalid" ? json["did"]?.nonEmptyString ?? handle : handle
        return Author(
            handle: shown, name: json["displayName"]?.nonEmptyString ?? shown,
            profileImageURL: WebLink.http(json["avatar"]?.string))
    }

    /// Bluesky's timestamps carry 3 or 6 fractional digits, and some carry no zone: those are UTC.
    static func date(_ json: JSONValue?) -> Date? {
        guard let text = json?.nonEmptyString else { return nil }
        return WireDate.parseISO8601(text) ?? WireDate.parseISO8601(text + "Z")
    }
}

/// `https://bsky.app/profile/HANDLE/post/RKEY`, the record key being the URI's last segment.
enum Permalink {
    static func of(uri: String, handle: String) -> String {
        "https://bsky.app/profile/\(handle)/post/\(uri.split(separator: "/").last ?? "")"
    }
}

extension Post {
    /// The same content, as a repost by `reposter` at `time`.
    fileprivate func reposted(by reposter: Author, at time: Date, id repostID: String?) -> Post {
        Post(
            network: network, id: repostID ?? id, created: time, author: author, text: text, mentions: mentions,
            media: media,
            repostedBy: reposter, quotedID: quotedID, quoted: quoted, inReplyToID: inReplyToID,
            contentWarning: contentWarning, isSensitive: isSensitive, card: card, url: url, language: language,
            signedInOnly: signedInOnly
        )
    }
}

/// Why a post view could not be read.
package enum BlueskyDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case invalid(String, uri: String)

    package var description: String {
        switch self {
        case .missing(let field): "a post has no \(field)"
        case .invalid(let field, let uri): "post \(uri) has no valid \(field)"
        }
    }
}
