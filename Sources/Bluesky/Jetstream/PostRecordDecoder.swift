import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A post record (`app.bsky.feed.post`, as the repository holds it and Jetstream sends it) as a post. Unlike a post
/// view it has no author profile, no labels but the author's own, and its embeds are blob references: images are
/// built as the CDN serves them from the author's DID and the blob's CID.
enum PostRecordDecoder {
    static func post(_ record: JSONValue?, uri: String, did: String, time: Int64) throws(JetstreamError) -> Post {
        guard let record, record.object != nil else { throw .invalidRecord("no record", uri: uri) }
        guard let text = record["text"]?.string else { throw .invalidRecord("no text", uri: uri) }
        // The author's own clock, when it says; else when the firehose saw it.
        let created = PostViewDecoder.date(record["createdAt"]) ?? Date(timeIntervalSince1970: Double(time) / 1_000_000)
        let embed = record["embed"]
        let warning = LabelWarning(selfLabels: record["labels"], labels: nil)
        let quotedID = RecordEmbed.quotedURI(embed)
        return Post(
            network: .bluesky, id: uri, created: created, author: Author(handle: did, name: did), text: text,
            mentions: FacetText(text: text, facets: record["facets"]?.array ?? []).mentions,
            media: RecordEmbed.media(embed, did: did), quotedID: quotedID,
            inReplyToID: record["reply"]?["parent"]?["uri"]?.nonEmptyString,
            inReplyToUser: PostViewDecoder.ownThread(record, did: did) ? did : nil,
            contentWarning: warning.sentence, isSensitive: warning.sentence != nil,
            card: RecordEmbed.card(embed, did: did),
            url: Permalink.of(uri: uri, handle: did), language: PostViewDecoder.language(of: record)
        )
    }
}

/// A record's embed (`app.bsky.embed.*`, not `#view`): blob references rather than URLs.
enum RecordEmbed {
    static func media(_ embed: JSONValue?, did: String) -> [MediaItem] {
        guard let embed else { return [] }
        switch kind(of: embed) {
        case "images":
            return (embed["images"]?.array ?? []).compactMap { image in
                BlobURL.image(image["image"], did: did).map {
                    MediaItem(
                        url: $0, aspectRatio: EmbedDecoder.aspectRatio(image["aspectRatio"]), kind: .photo,
                        alt: image["alt"]?.string)
                }
            }
        case "video":
            let video = embed["video"]
            return EmbedDecoder.video(
                still: BlobURL.videoThumbnail(video, did: did), playlist: BlobURL.videoPlaylist(video, did: did),
                of: embed
            )
            .map { [$0] } ?? []
        case "recordWithMedia": return media(embed["media"], did: did)
        default: return []
        }
    }

    static func card(_ embed: JSONValue?, did: String) -> LinkCard? {
        guard let embed else { return nil }
        switch kind(of: embed) {
        case "external":
            let external = embed["external"]
            return LinkCard(
                checking: external?["uri"]?.string, title: external?["title"]?.string,
                description: external?["description"]?.string, imageURL: BlobURL.thumbnail(external?["thumb"], did: did)
            )
        case "recordWithMedia": return card(embed["media"], did: did)
        default: return nil
        }
    }

    /// The quoted post's URI (a strong ref), from a quote or a quote with media.
    static func quotedURI(_ embed: JSONValue?) -> String? {
        guard let embed else { return nil }
        let reference =
            switch kind(of: embed) {
            case "record": embed["record"]
            case "recordWithMedia": embed["record"]?["record"]
            default: nil as JSONValue?
            }
        guard let uri = reference?["uri"]?.nonEmptyString, uri.hasPrefix("at://"), uri.contains("/app.bsky.feed.post/")
        else { return nil }
        return uri
    }

    /// `images` of `app.bsky.embed.images`; an unknown type gives "" (nothing shown, nothing thrown).
    private static func kind(of embed: JSONValue) -> String {
        EmbedDecoder.kind(of: embed, form: "")
    }
}

/// Where Bluesky's CDN serves a blob: by the author's DID and the blob's CID (`ref.$link`).
enum BlobURL {
    static func image(_ blob: JSONValue?, did: String) -> String? {
        cid(blob).map { "https://cdn.bsky.app/img/feed_fullsize/plain/\(did)/\($0)@jpeg" }
    }

    static func thumbnail(_ blob: JSONValue?, did: String) -> String? {
        cid(blob).map { "https://cdn.bsky.app/img/feed_thumbnail/plain/\(did)/\($0)@jpeg" }
    }

    static func videoThumbnail(_ blob: JSONValue?, did: String) -> String? {
        cid(blob).map { "https://video.bsky.app/watch/\(URLQuery.encode(did))/\($0)/thumbnail.jpg" }
    }

    /// The HLS playlist Bluesky's video service makes of an uploaded video (what `video#view` names as `playlist`;
    /// the DID percent-encoded there, as the AppView writes it).
    static func videoPlaylist(_ blob: JSONValue?, did: String) -> String? {
        cid(blob).map { "https://video.bsky.app/watch/\(URLQuery.encode(did))/\($0)/playlist.m3u8" }
    }

    /// A CID is base32 or base58 letters and digits: anything else is not put in an address.
    private static func cid(_ blob: JSONValue?) -> String? {
        guard let cid = (blob?["ref"]?["$link"] ?? blob?["cid"])?.nonEmptyString,
            cid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return cid
    }
}
