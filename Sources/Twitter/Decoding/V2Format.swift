import Posts
import WireJSON

/// What a v2 tweet refers to by id: authors, media and referenced tweets. A page carries them in `includes`; a
/// `twarc2 flatten` line carries them merged into the tweet itself.
struct V2Includes<Node: JSONNode> {
    private(set) var users: [String: Author] = [:]
    private(set) var media: [String: MediaItem] = [:]
    private(set) var tweets: [String: Node] = [:]

    init(page includes: Node?) {
        if let users = includes?["users"]?.array { for user in users { add(user: user) } }
        if let media = includes?["media"]?.array { for item in media { add(media: item) } }
        if let tweets = includes?["tweets"]?.array {
            for tweet in tweets { if let id = tweet["id"]?.string { self.tweets[id] = tweet } }
        }
    }

    init(flattened tweet: Node) {
        add(merged: tweet)
        if let references = tweet["referenced_tweets"]?.array {
            for referenced in references where referenced["text"] != nil {
                add(merged: referenced)
                if let id = referenced["id"]?.string { tweets[id] = referenced }
            }
        }
    }

    private mutating func add(merged tweet: Node) {
        if let author = tweet["author"] { add(user: author) }
        if let media = tweet["attachments"]?["media"]?.array { for item in media { add(media: item) } }
    }

    private mutating func add(user json: Node) {
        guard let id = json["id"]?.string, let username = json["username"]?.nonEmptyString else { return }
        users[id] = Author(
            handle: username, name: json["name"]?.string ?? username,
            profileImageURL: json["profile_image_url"]?.nonEmptyString)
    }

    private mutating func add(media json: Node) {
        guard let key = json["media_key"]?.string,
            let url = json["url"]?.nonEmptyString ?? json["preview_image_url"]?.nonEmptyString
        else { return }
        let ratio = V1Format.aspectRatio(json["width"]?.double, json["height"]?.double)
        media[key] = MediaItem(
            url: url, aspectRatio: ratio, kind: .init(wireType: json["type"]?.string),
            playURL: XVariants.bestMP4(json["variants"]), alt: json["alt_text"]?.string,
            duration: json["duration_ms"]?.double.map { $0 / 1000 })
    }
}

/// X API v2 tweets: `search/recent` pages, twarc2 lines, and `twarc2 flatten` lines; read from a tree or a tape.
enum V2Format {
    /// A tweet; the one it quotes, when the page includes it, is decoded into it one level deep.
    static func tweet<Node: JSONNode>(
        _ json: Node, includes: V2Includes<Node>, decodesQuote: Bool = true
    ) throws
        -> Post
    {
        guard let raw = json["id"]?.nonEmptyString else { throw FormatError("a v2 tweet without an id") }
        let id = try WireTweet.checked(id: raw)
        let author = includes.users[json["author_id"]?.string ?? ""] ?? .unknown
        var wire = WireTweet(
            id: id, created: try WireTweet.created(json["created_at"], id: id),
            content: try content(json, author: author, includes: includes))
        let references = json["referenced_tweets"]?.array
        func referenced(_ type: String) -> String? {
            references?.first { $0["type"]?.string == type }?["id"]?.string
        }
        var shown = json
        if let originalID = referenced("retweeted"), let original = includes.tweets[originalID] {
            let originalAuthor = includes.users[original["author_id"]?.string ?? ""] ?? .unknown
            wire = WireTweet(
                id: id, created: wire.created,
                content: try content(original, author: originalAuthor, includes: includes), repostedBy: author)
            shown = original
        }
        wire.language = shown["lang"]?.nonEmptyString ?? json["lang"]?.nonEmptyString
        wire.quotedID = referenced("quoted")
        if decodesQuote, let quotedID = wire.quotedID, let quoted = includes.tweets[quotedID] {
            wire.quoted = try? tweet(quoted, includes: includes, decodesQuote: false)
        }
        wire.inReplyToID = referenced("replied_to")
        wire.inReplyToUser = json["in_reply_to_user_id"]?.string.flatMap { includes.users[$0]?.handle }
        return wire.tweet
    }

    /// A long post's whole text is in `note_tweet`; `text` holds only its first 280 characters.
    private static func content<Node: JSONNode>(
        _ json: Node, author: Author, includes: V2Includes<Node>
    ) throws
        -> TweetContent
    {
        let source = json["note_tweet"]?["text"] != nil ? json["note_tweet"] : json
        guard let text = source?["text"]?.string else {
            throw FormatError("tweet \(json["id"]?.string ?? "") has no text")
        }
        let entities = source?["entities"]
        let media =
            json["attachments"]?["media_keys"]?.array?.compactMap { $0.string.flatMap { includes.media[$0] } } ?? []
        var mediaLinks: [String] = []
        var links: [Node] = []
        if let urls = entities?["urls"]?.array {
            for url in urls {
                if !isMediaLink(url) {
                    links.append(url)
                } else if let link = url["url"]?.string {
                    mediaLinks.append(link)
                }
            }
        }
        let wire = WireText(
            escapedText: text, entities: self.entities(entities, links: links), mediaLinks: mediaLinks,
            isReply: json["referenced_tweets"]?.array?.contains { $0["type"]?.string == "replied_to" } == true
        )
        return TweetContent(author: author, text: wire, media: media)
    }

    /// `links`: the entities' URLs that are not links to the tweet's own media.
    private static func entities<Node: JSONNode>(_ entities: Node?, links: [Node]) -> [WireEntity] {
        guard let entities else { return [] }
        let hashtags = entities["hashtags"]?.array?.compactMap {
            entity($0, .hashtag, token: $0["tag"]?.string.map { "#" + $0 })
        }
        let users = entities["mentions"]?.array?.compactMap {
            entity($0, .user, token: $0["username"]?.string.map { "@" + $0 })
        }
        let urls = links.compactMap {
            entity(
                $0, .url, token: $0["url"]?.string, expanded: $0["expanded_url"]?.nonEmptyString,
                display: $0["display_url"]?.nonEmptyString)
        }
        return (hashtags ?? []) + (users ?? []) + urls
    }

    /// The link to the tweet's own photos: marked by `media_key` in newer data, only by its display form in older.
    private static func isMediaLink<Node: JSONNode>(_ url: Node) -> Bool {
        if url["media_key"] != nil { return true }
        let display = url["display_url"]?.string ?? ""
        return display.hasPrefix("pic.twitter.com/") || display.hasPrefix("pic.x.com/")
    }

    private static func entity<Node: JSONNode>(
        _ json: Node, _ kind: Mention.Kind, token: String?, expanded: String? = nil, display: String? = nil
    ) -> WireEntity? {
        guard let token else { return nil }
        return WireEntity(
            kind: kind, start: json["start"]?.int, end: json["end"]?.int, token: token, expandedURL: expanded,
            display: display)
    }
}
