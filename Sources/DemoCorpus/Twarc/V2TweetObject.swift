import Posts
import Twitter
import WireJSON

/// One tweet object of an X API v2 response, written the way the API writes it: HTML-escaped text, entity offsets in
/// code points of that escaped text, the tweet's own photos as a trailing `pic.x.com` link.
struct V2TweetObject {
    struct Reference {
        let type: String
        let id: String
    }

    let id: String
    let author: Author
    let created: Milliseconds
    let text: String
    let mentions: [Mention]
    var media: [MediaItem] = []
    var references: [Reference] = []

    func write(to json: inout JSONWriter) {
        let mediaLink = media.isEmpty ? nil : MediaLink(tweetID: id, author: author)
        json.beginObject()
        json.member("id", id)
        json.member("text", htmlEscaping: mediaLink.map { text + " " + $0.url } ?? text)
        json.member("author_id", V2UserID.of(author))
        json.member("created_at", ISO8601.string(created))
        json.beginArray("edit_history_tweet_ids")
        json.element(id)
        json.endArray()
        writeEntities(mediaLink: mediaLink, to: &json)
        writeAttachments(to: &json)
        writeReferences(to: &json)
        json.endObject()
    }

    /// `3_<tweet id>_<position>`: unique on a page, the same in the tweet and in `includes.media`.
    static func mediaKey(tweetID: String, index: Int) -> String {
        "3_" + tweetID + "_" + String(index)
    }

    private func writeEntities(mediaLink: MediaLink?, to json: inout JSONWriter) {
        let placed = EscapedOffsets(text: text, mentions: mentions)
        guard !placed.entities.isEmpty || mediaLink != nil else { return }
        json.beginObject("entities")
        writeGroup("hashtags", of: .hashtag, placed, to: &json) { $0.member("tag", String($1.keyword.dropFirst())) }
        writeGroup("mentions", of: .user, placed, to: &json) { $0.member("username", String($1.keyword.dropFirst())) }
        if placed.entities.contains(where: { $0.mention.kind == .url }) || mediaLink != nil {
            json.beginArray("urls")
            for entity in placed.entities where entity.mention.kind == .url { writeURL(entity, to: &json) }
            mediaLink?.write(startingAt: placed.length + 1, mediaKey: Self.mediaKey(tweetID: id, index: 0), to: &json)
            json.endArray()
        }
        json.endObject()
    }

    private func writeGroup(
        _ name: String, of kind: Mention.Kind, _ placed: EscapedOffsets, to json: inout JSONWriter,
        details: (inout JSONWriter, Mention) -> Void
    ) {
        let entities = placed.entities.filter { $0.mention.kind == kind }
        guard !entities.isEmpty else { return }
        json.beginArray(name)
        for entity in entities {
            json.beginObject()
            json.member("start", entity.range.lowerBound)
            json.member("end", entity.range.upperBound)
            details(&json, entity.mention)
            json.endObject()
        }
        json.endArray()
    }

    private func writeURL(_ entity: EscapedOffsets.Entity, to json: inout JSONWriter) {
        let expanded = entity.mention.expandedURL ?? entity.mention.keyword
        json.beginObject()
        json.member("start", entity.range.lowerBound)
        json.member("end", entity.range.upperBound)
        json.member("url", entity.mention.keyword)
        json.member("expanded_url", expanded)
        json.member("display_url", entity.mention.display ?? DisplayURL.of(expanded))
        json.endObject()
    }

    private func writeAttachments(to json: inout JSONWriter) {
        guard !media.isEmpty else { return }
        json.beginObject("attachments")
        json.beginArray("media_keys")
        for index in media.indices { json.element(Self.mediaKey(tweetID: id, index: index)) }
        json.endArray()
        json.endObject()
    }

    private func writeReferences(to json: inout JSONWriter) {
        guard !references.isEmpty else { return }
        json.beginArray("referenced_tweets")
        for reference in references {
            json.beginObject()
            json.member("type", reference.type)
            json.member("id", reference.id)
            json.endObject()
        }
        json.endArray()
    }
}

/// Where each mention is in the HTML-escaped text, in code points: every `&` before it adds four (`&amp;`), every
/// `<` or `>` three.
struct EscapedOffsets {
    struct Entity {
        let mention: Mention
        let range: Range<Int>
    }

    private(set) var entities: [Entity] = []
    private(set) var length = 0

    /// Mentions that do not fit in the text are left out rather than written wrong.
    init(text: String, mentions: [Mention]) {
        guard text.utf8.contains(where: Self.isEscaped) else {
            length = text.unicodeScalars.count
            entities = mentions.filter { $0.range.lowerBound >= 0 && $0.range.upperBound <= length }.map {
                Entity(mention: $0, range: $0.range)
            }
            return
        }
        let added = Self.addedBefore(text)
        length = added.count - 1 + (added.last ?? 0)
        for mention in mentions where mention.range.lowerBound >= 0 && mention.range.upperBound < added.count {
            let start = mention.range.lowerBound + added[mention.range.lowerBound]
            let end = mention.range.upperBound + added[mention.range.upperBound]
            entities.append(Entity(mention: mention, range: start..<end))
        }
    }

    private static func isEscaped(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
    }

    /// For each scalar offset 0…count, how many code points escaping adds before it.
    private static func addedBefore(_ text: String) -> [Int] {
        var added = [0]
        added.reserveCapacity(text.utf8.count + 1)
        var total = 0
        for scalar in text.unicodeScalars {
            total += scalar == "&" ? 4 : scalar == "<" || scalar == ">" ? 3 : 0
            added.append(total)
        }
        return added
    }
}

/// The link Twitter appends to a tweet with photos, which clients hide: a t.co address shown as `pic.x.com/…`.
private struct MediaLink {
    let url: String
    let expanded: String

    init(tweetID: String, author: Author) {
        url = ShortLink.url(code: StableHash.of(tweetID))
        expanded = "https://x.com/" + author.handle + "/status/" + tweetID + "/photo/1"
    }

    func write(startingAt start: Int, mediaKey: String, to json: inout JSONWriter) {
        json.beginObject()
        json.member("start", start)
        json.member("end", start + url.unicodeScalars.count)
        json.member("url", url)
        json.member("expanded_url", expanded)
        json.member("display_url", "pic.x.com/" + url.dropFirst("https://t.co/".count))
        json.member("media_key", mediaKey)
        json.endObject()
    }
}

/// How Twitter shows a link: no scheme or `www.`, long ones cut with an ellipsis.
enum DisplayURL {
    static let limit = 30

    static func of(_ url: String) -> String {
        let afterScheme = url.drop { $0 != ":" }.dropFirst(3)
        var shown = afterScheme.isEmpty ? Substring(url) : afterScheme
        if shown.hasPrefix("www.") { shown = shown.dropFirst(4) }
        return shown.count > limit ? String(shown.prefix(limit - 1)) + "…" : String(shown)
    }
}

/// A user's v2 id: derived from the screen name, so the same account has the same id on every page and in every file.
enum V2UserID {
    static func of(_ user: Author) -> String {
        String(StableHash.of(user.handle) >> 4)
    }
}
