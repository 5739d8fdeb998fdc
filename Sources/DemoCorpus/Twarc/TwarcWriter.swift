import Posts
import Twitter
import WireJSON

/// Writes tweets as twarc2 JSON Lines: each line one X API v2 `search/recent` response of up to 100 tweets, with
/// authors, media and retweeted originals under `includes`, as `twarc2 search` saves them. Tweets keep the order
/// they are given in. `TweetFileReader` reads the lines back to equal tweets.
public struct TwarcWriter: Sendable {
    public static let pageSize = 100

    public init() {}

    /// One line, ending in a newline, holding `tweets` (at most `pageSize` of them, by the API's rules) as one page.
    public func line(for tweets: some Sequence<Post>) -> [UInt8] {
        var page = TwarcPage()
        for tweet in tweets { page.add(tweet) }
        return page.line
    }

    /// Writes `tweets` a page at a time, so a million tweets never sit in memory at once.
    public func write(_ tweets: some Sequence<Post>, to output: inout some TextOutputStream) {
        var page: [Post] = []
        page.reserveCapacity(Self.pageSize)
        for tweet in tweets {
            page.append(tweet)
            guard page.count == Self.pageSize else { continue }
            output.write(String(decoding: line(for: page), as: UTF8.self))
            page.removeAll(keepingCapacity: true)
        }
        if !page.isEmpty { output.write(String(decoding: line(for: page), as: UTF8.self)) }
    }
}

/// One response being assembled: `data` and each `includes` section are written side by side, then joined.
private struct TwarcPage {
    private var data = JSONWriter()
    private var users = JSONWriter()
    private var media = JSONWriter()
    private var originals = JSONWriter()
    private var userIDs = Set<String>()
    private var count = 0
    private var newest: (id: String, created: Milliseconds)?
    private var oldestID: String?

    mutating func add(_ tweet: Post) {
        let created = Milliseconds(tweet.created)
        note(id: tweet.id, created: created)
        if let retweeter = tweet.repostedBy {
            addRetweet(tweet, by: retweeter, created: created)
        } else {
            V2TweetObject(tweet, id: tweet.id, created: created, references: Self.references(of: tweet)).write(
                to: &data)
            add(media: tweet.media, of: tweet.id)
        }
        add(user: tweet.author)
    }

    var line: [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.member("data", elementsOf: data)
        json.beginObject("includes")
        json.member("users", elementsOf: users)
        if !media.isEmpty { json.member("media", elementsOf: media) }
        if !originals.isEmpty { json.member("tweets", elementsOf: originals) }
        json.endObject()
        writeMeta(to: &json)
        writeTwarc(to: &json)
        json.endObject()
        return json.output.bytes + [UInt8(ascii: "\n")]
    }

    /// The API's form of a retweet: `RT @original: …` by the retweeter, pointing at the original in `includes`.
    private mutating func addRetweet(_ tweet: Post, by retweeter: Author, created: Milliseconds) {
        let original = InventedOriginal(ofRetweet: tweet.id, created: created)
        let shown = RetweetText(of: tweet)
        let references = [V2TweetObject.Reference(type: "retweeted", id: original.id)] + Self.references(of: tweet)
        V2TweetObject(
            id: tweet.id, author: retweeter, created: created, text: shown.text, mentions: shown.mentions,
            references: references
        )
        .write(to: &data)
        V2TweetObject(tweet, id: original.id, created: original.created, references: []).write(to: &originals)
        add(media: tweet.media, of: original.id)
        add(user: retweeter)
    }

    private static func references(of tweet: Post) -> [V2TweetObject.Reference] {
        [
            tweet.quotedID.map { .init(type: "quoted", id: $0) },
            tweet.inReplyToID.map { .init(type: "replied_to", id: $0) },
        ]
        .compactMap { $0 }
    }

    private mutating func add(user: Author) {
        let id = V2UserID.of(user)
        guard userIDs.insert(id).inserted else { return }
        users.beginObject()
        users.member("id", id)
        users.member("username", user.handle)
        users.member("name", user.name)
        if let image = user.profileImageURL { users.member("profile_image_url", image) }
        users.endObject()
    }

    private mutating func add(media items: [MediaItem], of tweetID: String) {
        for (index, item) in items.enumerated() {
            let size = MediaSize(item)
            media.beginObject()
            media.member("media_key", V2TweetObject.mediaKey(tweetID: tweetID, index: index))
            media.member("type", item.kind == .gifv ? "animated_gif" : item.kind.rawValue)
            media.member(item.kind == .photo ? "url" : "preview_image_url", item.url)
            if let size {
                media.member("width", number: size.width)
                media.member("height", number: size.height)
            }
            if let alt = item.alt { media.member("alt_text", alt) }
            if let duration = item.duration { media.member("duration_ms", Int((duration * 1000).rounded())) }
            if let play = item.playURL {
                media.beginArray("variants")
                media.beginObject()
                media.member("bit_rate", 2_176_000)
                media.member("content_type", "video/mp4")
                media.member("url", play)
                media.endObject()
                media.endArray()
            }
            media.endObject()
        }
    }

    private mutating func note(id: String, created: Milliseconds) {
        count += 1
        if newest.map({ TweetID.isBefore($0.id, id) }) ?? true { newest = (id, created) }
        if oldestID.map({ TweetID.isBefore(id, $0) }) ?? true { oldestID = id }
    }

    private func writeMeta(to json: inout JSONWriter) {
        json.beginObject("meta")
        json.member("result_count", count)
        if let newest, let oldestID {
            json.member("newest_id", newest.id)
            json.member("oldest_id", oldestID)
        }
        json.endObject()
    }

    private func writeTwarc(to json: inout JSONWriter) {
        json.beginObject("__twarc")
        json.member(
            "url",
            """
            https://api.twitter.com/2/tweets/search/recent?max_results=100\
            &expansions=author_id%2Cattachments.media_keys%2Creferenced_tweets.id
            """
        )
        json.member("version", "2.14.0")
        json.member("retrieved_at", ISO8601.string(newest?.created ?? Milliseconds(0)))
        json.endObject()
    }
}

extension V2TweetObject {
    /// A tweet's own content under `id`: the tweet itself, or the original of a retweet.
    init(_ tweet: Post, id: String, created: Milliseconds, references: [Reference]) {
        self.init(
            id: id, author: tweet.author, created: created, text: tweet.text, mentions: tweet.mentions,
            media: tweet.media, references: references
        )
    }
}

/// `Post` does not keep a retweeted original's id or date, so the page makes them up: a few minutes to hours before
/// the retweet, with a sequence part no generated id uses, derived from the retweet's id so files are reproducible.
private struct InventedOriginal {
    let id: String
    let created: Milliseconds

    init(ofRetweet retweetID: String, created retweeted: Milliseconds) {
        let hash = StableHash.of(retweetID)
        created = Milliseconds(retweeted.value - 60_000 - Int64(hash % (6 * 3_600_000)))
        id = String(SnowflakeClock.id(at: created, sequence: 1 << 21 | hash >> 43))
    }
}

/// What the API puts in a retweet's own `text`: `RT @original: ` and the original's text, cut to 140 characters
/// with an ellipsis when longer; entities that would be cut are left out.
private struct RetweetText {
    static let limit = 140
    let text: String
    let mentions: [Mention]

    init(of tweet: Post) {
        let handle = "@" + tweet.author.handle
        let prefix = "RT " + handle + ": "
        let shift = prefix.unicodeScalars.count
        let scalars = Array(tweet.text.unicodeScalars)
        let kept = shift + scalars.count > Self.limit ? max(0, Self.limit - 1 - shift) : scalars.count
        var view = String.UnicodeScalarView(prefix.unicodeScalars)
        view.append(contentsOf: scalars[..<kept])
        text = String(view) + (kept < scalars.count ? "…" : "")
        mentions =
            [Mention(kind: .user, keyword: handle, range: 3..<3 + handle.unicodeScalars.count)]
            + tweet.mentions.filter { $0.range.upperBound <= kept }.map { $0.shifted(by: shift) }
    }
}

extension Mention {
    fileprivate func shifted(by offset: Int) -> Mention {
        Mention(
            kind: kind, keyword: keyword, range: range.lowerBound + offset..<range.upperBound + offset,
            expandedURL: expandedURL, display: display)
    }
}

/// A photo's size for `includes.media`: exact for demo pictures, whose size is in their path; otherwise the smallest
/// whole numbers with exactly the aspect ratio, or the ratio itself over 1 when there are none.
private struct MediaSize {
    let width: String
    let height: String

    init?(_ item: MediaItem) {
        let ratio = item.aspectRatio
        guard ratio.isFinite, ratio > 0 else { return nil }
        if let path = DemoImagePath(item.url), path.aspectRatio == ratio {
            (width, height) = (String(path.width), String(path.height))
        } else if let height = (1...2000).first(where: { (ratio * Double($0)).rounded() / Double($0) == ratio }) {
            (width, self.height) = (String(Int((ratio * Double(height)).rounded())), String(height))
        } else {
            (width, height) = ("\(ratio)", "1")
        }
    }
}
