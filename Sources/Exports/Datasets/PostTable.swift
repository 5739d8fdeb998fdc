import AppStore
import Posts
import WireJSON

/// What a dataset says of the posts whose authors show them only to people signed in.
enum SignInOnly {
    static let fieldDescription = """
        Whether the author shows their posts only to people signed in (Bluesky's !no-unauthenticated): Smashtag \
        never shows them to visitors, and whoever publishes the dataset should not either.
        """
}

/// The tidy tables a dataset's posts make, one CSV each, joined by `network,post_id`: one row per post, per mention
/// and per medium, as R and pandas read them without options.
enum PostTable: String, CaseIterable, Sendable {
    case posts
    case mentions
    case media

    var fileName: String { rawValue + ".csv" }

    var header: [String] { fields.map(\.name) }

    /// Each column with its type and meaning, as the dataset's `datapackage.json` describes it.
    var fields: [DatasetField] {
        let key = [
            DatasetField("network", "string", "twitter, mastodon or bluesky; with post_id, the post's key."),
            DatasetField("post_id", "string", "The network's own id of the post (an at:// URI on Bluesky)."),
        ]
        switch self {
        case .posts:
            return key + [
                DatasetField("url", "string", "The post's permalink."),
                DatasetField("created", "datetime", "When the post was made, to the microsecond the network gave."),
                DatasetField("counted", "datetime", "When Smashtag first counted the post under the term."),
                DatasetField("author_handle", "string", "The author's handle (a pseudonym when pseudonymised)."),
                DatasetField("author_name", "string", "The author's name (empty when pseudonymised)."),
                DatasetField("text", "string", "The text; a cell a spreadsheet would run as a formula starts with '."),
                DatasetField("language", "string", "The language the network says the post is in."),
                DatasetField("reply_to", "string", "The id of the post it replies to."),
                DatasetField(
                    "reply_to_user", "string", "The handle of the author it replies to, where the network says."),
                DatasetField("quote_of", "string", "The id of the post it quotes."),
                DatasetField("reposted_by", "string", "Who reposted it, when the row is a repost."),
                DatasetField("content_warning", "string", "The author's content warning."),
                DatasetField("sensitive", "boolean", "Whether the author marked its media sensitive."),
                DatasetField("signed_in_only", "boolean", SignInOnly.fieldDescription),
            ]
        case .mentions:
            return key + [
                DatasetField("kind", "string", "hashtag, user or url."),
                DatasetField("mention", "string", "The mention as written in the text."),
                DatasetField("start", "integer", "Where it starts in the text, in Unicode code points."),
                DatasetField("end", "integer", "Where it ends in the text, in Unicode code points."),
                DatasetField("url", "string", "Where a link goes."),
            ]
        case .media:
            return key + [
                DatasetField("kind", "string", "photo, video, gifv or audio."),
                DatasetField("url", "string", "The picture, or a video's still."),
                DatasetField("play_url", "string", "What plays: an MP4, an HLS playlist or a sound."),
                DatasetField("aspect_ratio", "number", "Width over height; 0 when unknown."),
                DatasetField("alt", "string", "The description its poster wrote."),
            ]
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
                    post.inReplyToUser ?? "", post.quotedID ?? "", post.repostedBy?.handle ?? "",
                    post.contentWarning ?? "",
                    post.isSensitive ? "true" : "false", post.signedInOnly ? "true" : "false",
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
