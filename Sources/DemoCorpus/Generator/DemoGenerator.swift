import Posts
import Twitter

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Makes the demo corpus: realistic tweets — Zipf-popular hashtags and users, many languages and scripts, emoji,
/// links, images of every shape, retweets and replies — the same ones for the same seed, count and end date.
public struct DemoGenerator: Sequence, IteratorProtocol, Sendable {
    /// Every account that tweets or is mentioned; screen names unique ignoring case.
    public let users: [Author]
    private let schedule: Schedule
    private let author: ZipfTable
    private var random: SeededRandom
    private var composer: TweetComposer
    private var clock = SnowflakeClock()
    private var recent = RecentTweets(capacity: 500)
    private var produced = 0

    /// The ten hashtags the generator uses most, most popular first, without `#`; live tweets are about these.
    public static let popularHashtags = Array(DemoVocabulary.shared.hashtags.prefix(TweetComposer.trendingCount))

    /// `count` tweets spread over the 30 days before `end`, oldest first.
    public init(seed: UInt64, count: Int, end: Date) {
        random = SeededRandom(seed: seed)
        let population = DemoPopulation(count: Self.userCount(forTweets: count), random: &random)
        users = population.users
        composer = TweetComposer(handles: population.handles)
        author = ZipfTable(count: users.count, exponent: 0.7)
        schedule = Schedule(count: count, end: Milliseconds(end))
    }

    /// The next tweet, oldest first; nil after `count`.
    public mutating func next() -> Post? {
        guard produced < schedule.count else { return nil }
        let time = schedule.time(of: produced, random: &random)
        produced += 1
        return tweet(at: time)
    }

    /// A tweet at `date` on the popular hashtags, continuing the same random sequence. Its id is greater than every
    /// id generated before, even if `date` is not later (the id then says a slightly later time than `created`).
    public mutating func liveTweet(at date: Date) -> Post {
        original(at: Milliseconds(date), replyingTo: nil, topic: .trending)
    }

    /// A few thousand; fewer for a small corpus, but never fewer than the few hundred people mention.
    private static func userCount(forTweets count: Int) -> Int {
        Swift.min(Swift.max(count, 300), 3000)
    }

    /// A retweet about 15% of the time and a reply about 10%, once there are tweets to retweet and reply to.
    private mutating func tweet(at time: Milliseconds) -> Post {
        let roll = random.unit()
        if roll < 0.15, let earlier = recent.pick(&random) { return retweet(of: earlier, at: time) }
        let replied = roll < 0.25 ? recent.pick(&random) : nil
        return original(at: time, replyingTo: replied, topic: .anything)
    }

    private mutating func original(
        at time: Milliseconds, replyingTo replied: RecentTweets.Entry?, topic: TweetComposer.Topic
    ) -> Post {
        let id = clock.id(at: time)
        let authorIndex = author.rank(&random)
        let content = composer.compose(
            replyingTo: replied.map { composer.handle(of: $0.authorIndex) }, topic: topic, random: &random)
        let tweet = Post(
            id: String(id), created: time.date, author: users[authorIndex], text: content.text,
            mentions: content.mentions, media: content.media, inReplyToID: replied?.tweet.id,
            inReplyToUser: replied?.tweet.author.handle,
            displayStart: content.displayStart
        )
        recent.add(RecentTweets.Entry(tweet: tweet, authorIndex: authorIndex))
        return tweet
    }

    /// Shows the original's content under the retweet's own id and date, as `Post` documents.
    private mutating func retweet(of earlier: RecentTweets.Entry, at time: Milliseconds) -> Post {
        let id = clock.id(at: time)
        var retweeter = author.rank(&random)
        if retweeter == earlier.authorIndex { retweeter = (retweeter + 1) % users.count }
        let original = earlier.tweet
        return Post(
            id: String(id), created: time.date, author: original.author, text: original.text,
            mentions: original.mentions, media: original.media, repostedBy: users[retweeter]
        )
    }
}

/// When each tweet is posted: evenly spread over the 30 days before the end, with random jitter, never going back.
private struct Schedule: Sendable {
    static let span: Int64 = 30 * 24 * 60 * 60 * 1000
    let count: Int
    let start: Int64
    let step: Double

    init(count: Int, end: Milliseconds) {
        self.count = max(count, 0)
        start = end.value - Self.span
        step = Double(Self.span) / Double(max(count, 1))
    }

    /// In `[start + index·step, start + (index+1)·step)`, so times never decrease.
    func time(of index: Int, random: inout SeededRandom) -> Milliseconds {
        Milliseconds(start + Int64((Double(index) + random.unit()) * step))
    }
}

/// The last few hundred original tweets, which retweets and replies pick from.
private struct RecentTweets: Sendable {
    struct Entry: Sendable {
        let tweet: Post
        let authorIndex: Int
    }

    let capacity: Int
    private var entries: [Entry] = []
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func add(_ entry: Entry) {
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
    }

    func pick(_ random: inout SeededRandom) -> Entry? {
        entries.isEmpty ? nil : random.element(of: entries)
    }
}
