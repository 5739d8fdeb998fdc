import AppStore
import Posts
import WireJSON

/// The tidy tables a dataset's posts make, one CSV each, joined by `network,post_id`: one row per post, per mention
/// and per medium, as R and pandas read them without options.
enum PostTable: String, CaseIterable, Sendable {
    case posts
    case mentions
    case media

    var fileName: String { rawValue + ".csv" }

    var header: [String] {
        switch self {
        case .posts:
            [
                "network", "post_id", "url", "created", "counted", "author_handle", "author_name", "text", "language",
                "reply_to", "quote_of", "reposted_by", "content_warning", "sensitive",
            ]
        case .mentions: ["network", "post_id", "kind", "mention", "start", "end", "url"]
        case .media: ["network", "post_id", "kind", "url", "play_url", "aspect_ratio", "alt"]
        }
    }

    /// The post's rows in this table, as CSV.
    func rows(_ counted: CountedPost) -> String {
        let post = counted.post
        let key = [post.network.rawValue, post.id]
        switch self {
        case .posts:
            return CSV.row(
                key + [
                    post.url, WireDate.iso8601(post.created), counted.counted.map(WireDate.iso8601) ?? "",
                    post.author.handle, post.author.name, post.text, post.language ?? "", post.inReplyToID ?? "",
                    post.quotedID ?? "", post.repostedBy?.handle ?? "", post.contentWarning ?? "",
                    post.isSensitive ? "true" : "false",
                ])
        case .mentions:
            return post.mentions.map { mention in
                CSV.row(
                    key + [
                        mention.kind.rawValue, mention.keyword, String(mention.range.lowerBound),
                        String(mention.range.upperBound), mention.expandedURL ?? "",
                    ])
            }.joined()
        case .media:
            return post.media.map { item in
                CSV.row(
                    key + [
                        item.kind.rawValue, item.url, item.playURL ?? "",
                        item.aspectRatio.isFinite ? "\(item.aspectRatio)" : "0", item.alt ?? "",
                    ])
            }.joined()
        }
    }
}
