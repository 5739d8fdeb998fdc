import Posts
import Twitter
import WireJSON

/// Writes what an original tweet says and shows: sentences in one of several languages, with hashtags, user mentions,
/// a link, emoji and images woven in at realistic rates — some of them glued to astral characters, the case that
/// breaks code counting offsets in UTF-16 or grapheme clusters.
struct TweetComposer: Sendable {
    /// Which hashtags a tweet is about.
    enum Topic {
        /// Any, with Zipf popularity; often none.
        case anything
        /// One to three of the ten most popular: what the live demo tweets about.
        case trending
    }

    struct Content {
        let text: String
        let mentions: [Mention]
        let media: [MediaItem]
        /// After a reply's `@name` and its space, as X shows a reply.
        let displayStart: Int
    }

    static let trendingCount = 10

    private let vocabulary = DemoVocabulary.shared
    private let handles: [TextPiece]
    private let mentionedUser: ZipfTable
    private let hashtag: ZipfTable
    private let trendingHashtag = ZipfTable(count: trendingCount, exponent: 1.1)
    private var text = TweetTextBuilder()
    private let space = TextPiece(" ")

    private static let hashtagCounts = WeightedChoice([55, 25, 12, 5, 3])
    private static let userMentionCounts = WeightedChoice([78, 16, 4, 2])
    private static let extraSentences = WeightedChoice([60, 30, 10])
    private static let imageCounts = WeightedChoice([74, 19, 3, 2, 2])
    private static let mediaKinds: [MediaItem.Kind] = [.photo, .video, .gifv]
    private static let mediaKindChoice = WeightedChoice([94, 4, 2])

    /// `handles` are the users' `@names`; the first few hundred are the ones people mention.
    init(handles: [TextPiece]) {
        self.handles = handles
        mentionedUser = ZipfTable(count: min(300, handles.count), exponent: 1.1)
        hashtag = ZipfTable(count: vocabulary.hashtags.count, exponent: 1.1)
    }

    func handle(of userIndex: Int) -> TextPiece {
        handles[userIndex]
    }

    mutating func compose(replyingTo handle: TextPiece?, topic: Topic, random: inout SeededRandom) -> Content {
        text.reset()
        if let handle { text.append(entity: .user, handle) }
        var pending = PendingEntities(
            hashtags: topic == .trending ? random.int(in: 1...3) : Self.hashtagCounts.pick(&random),
            users: Self.userMentionCounts.pick(&random),
            link: random.chance(0.15)
        )
        appendSentences(weaving: &pending, topic: topic, random: &random)
        appendRemaining(&pending, topic: topic, random: &random)
        if random.chance(0.2) {
            text.append(random.element(of: vocabulary.emoji), separator: random.chance(0.5) ? space : nil)
        }
        let (string, mentions) = text.build()
        let displayStart = handle.map { $0.scalarCount + 1 } ?? 0
        return Content(text: string, mentions: mentions, media: media(random: &random), displayStart: displayStart)
    }

    private mutating func appendSentences(
        weaving pending: inout PendingEntities, topic: Topic, random: inout SeededRandom
    ) {
        let language = vocabulary.languages[vocabulary.languageChoice.pick(&random)]
        let count = 1 + Self.extraSentences.pick(&random)
        var separator = space
        for index in 0..<count {
            text.append(random.element(of: language.sentences), separator: separator)
            separator = language.separator
            guard index < count - 1 else { break }
            if pending.users > 0, random.chance(0.5) {
                appendUserMention(random: &random)
                pending.users -= 1
                separator = space
            }
            if pending.hashtags > 0, random.chance(0.3) {
                appendHashtag(topic: topic, random: &random)
                pending.hashtags -= 1
                separator = space
            }
        }
    }

    /// Whatever did not go between sentences goes at the end, the way most tweets end in links and tags.
    private mutating func appendRemaining(_ pending: inout PendingEntities, topic: Topic, random: inout SeededRandom) {
        for _ in 0..<pending.users { appendUserMention(random: &random) }
        if pending.link { appendLink(random: &random) }
        for _ in 0..<pending.hashtags { appendHashtag(topic: topic, random: &random) }
    }

    private mutating func appendHashtag(topic: Topic, random: inout SeededRandom) {
        let rank = topic == .trending ? trendingHashtag.rank(&random) : hashtag.rank(&random)
        let spellings = vocabulary.hashtagSpellings[rank]
        let spelling = random.chance(0.9) ? 0 : 1 + random.below(spellings.count - 1)
        appendEntity(.hashtag, spellings[spelling], random: &random)
    }

    private mutating func appendUserMention(random: inout SeededRandom) {
        appendEntity(.user, handles[mentionedUser.rank(&random)], random: &random)
    }

    /// Usually after a space; sometimes glued to an emoji or astral letters on either side.
    private mutating func appendEntity(_ kind: Mention.Kind, _ keyword: TextPiece, random: inout SeededRandom) {
        switch random.below(100) {
        case 0..<4:
            text.append(random.element(of: vocabulary.joinedEmoji), separator: space)
            text.append(entity: kind, keyword)
        case 4..<6:
            text.append(random.element(of: vocabulary.fancy), separator: space)
            text.append(entity: kind, keyword)
        case 6..<9:
            text.append(random.element(of: vocabulary.fancy), separator: space)
            text.append(entity: kind, keyword, separator: space)
        case 9..<12:
            text.append(entity: kind, keyword, separator: space)
            text.append(random.element(of: vocabulary.emoji))
        default:
            text.append(entity: kind, keyword, separator: space)
        }
    }

    private mutating func appendLink(random: inout SeededRandom) {
        let link = TextPiece(ShortLink.url(code: random.next()))
        text.append(entity: .url, link, separator: space, expandedURL: expandedURL(random: &random))
    }

    private func expandedURL(random: inout SeededRandom) -> String {
        let site = random.element(of: vocabulary.sites)
        var url = ByteWriter(capacity: 80)
        url.append(site.base)
        switch site.path {
        case .number: url.append(decimal: random.int(in: 10_000...99_999_999))
        case .videoID: url.append(base62: random.next(), digits: 11)
        case .slug:
            for index in 0...random.below(3) {
                if index > 0 { url.append(byte: UInt8(ascii: "-")) }
                url.append(random.element(of: vocabulary.slugWords))
            }
        }
        return url.string
    }

    private func media(random: inout SeededRandom) -> [MediaItem] {
        let count = Self.imageCounts.pick(&random)
        guard count > 0 else { return [] }
        return (0..<count).map { _ in image(random: &random) }
    }

    private func image(random: inout SeededRandom) -> MediaItem {
        let (width, height) =
            random.chance(0.85)
            ? random.element(of: vocabulary.imageSizes)
            : (random.int(in: 200...2400), random.int(in: 200...2400))
        let path = DemoImagePath(number: random.below(1_000_000_000), width: width, height: height)
        let kind = Self.mediaKinds[Self.mediaKindChoice.pick(&random)]
        return MediaItem(url: path.string, aspectRatio: path.aspectRatio, kind: kind)
    }
}

/// The entities a tweet still has to place.
private struct PendingEntities {
    var hashtags: Int
    var users: Int
    var link: Bool
}
