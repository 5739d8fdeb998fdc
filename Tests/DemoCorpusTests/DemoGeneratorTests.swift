import DemoCorpus
import Foundation
import Posts
import Testing
import Twitter

/// A demo corpus made once and shared by the tests that only look at it.
enum DemoSample {
    static let end = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01
    static let tweets = Array(DemoGenerator(seed: 42, count: 20_000, end: end))
    static let users = DemoGenerator(seed: 42, count: 20_000, end: end).users
}

struct DemoGeneratorTests {
    @Test func sameSeedGivesSameTweets() {
        let first = Array(DemoGenerator(seed: 7, count: 500, end: DemoSample.end))
        let second = Array(DemoGenerator(seed: 7, count: 500, end: DemoSample.end))
        #expect(first.count == 500)
        #expect(first == second)
        #expect(
            DemoGenerator(seed: 7, count: 500, end: DemoSample.end).users
                == DemoGenerator(seed: 7, count: 500, end: DemoSample.end).users)
    }

    @Test func differentSeedGivesDifferentTweets() {
        let first = Array(DemoGenerator(seed: 7, count: 200, end: DemoSample.end))
        let second = Array(DemoGenerator(seed: 8, count: 200, end: DemoSample.end))
        #expect(zip(first, second).filter { $0.text == $1.text }.count < 20)
    }

    @Test func stopsAfterCount() {
        var generator = DemoGenerator(seed: 1, count: 3, end: DemoSample.end)
        #expect((0..<3).compactMap { _ in generator.next() }.count == 3)
        #expect(generator.next() == nil)
        #expect(Array(DemoGenerator(seed: 1, count: 0, end: DemoSample.end)).isEmpty)
    }

    @Test func idsIncreaseAndCarryTheirDate() throws {
        let ids = try DemoSample.tweets.map { try #require(UInt64($0.id)) }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        for (tweet, id) in zip(DemoSample.tweets, ids).prefix(2000) {
            let milliseconds = Int64(id >> 22) + 1_288_834_974_657
            #expect(Double(milliseconds) == (tweet.created.timeIntervalSince1970 * 1000).rounded())
        }
    }

    @Test func tweetsSpanTheThirtyDaysBeforeTheEnd() throws {
        let first = try #require(DemoSample.tweets.first).created
        let last = try #require(DemoSample.tweets.last).created
        #expect(first >= DemoSample.end.addingTimeInterval(-30 * 86_400))
        #expect(first < DemoSample.end.addingTimeInterval(-29 * 86_400))
        #expect(last < DemoSample.end && last > DemoSample.end.addingTimeInterval(-3600))
        #expect(zip(DemoSample.tweets, DemoSample.tweets.dropFirst()).allSatisfy { $0.created <= $1.created })
    }

    @Test func mentionsSayWhatTheTextSays() {
        for tweet in DemoSample.tweets {
            let scalars = Array(tweet.text.unicodeScalars)
            var previousEnd = 0
            for mention in tweet.mentions {
                #expect(mention.range.lowerBound >= previousEnd, "overlap or disorder in \(tweet.id)")
                #expect(mention.range.upperBound <= scalars.count)
                guard mention.range.upperBound <= scalars.count else { continue }
                #expect(
                    String(String.UnicodeScalarView(scalars[mention.range])) == mention.keyword, "tweet \(tweet.id)")
                previousEnd = mention.range.upperBound
            }
        }
    }

    @Test func mentionsHaveTheirKindsMark() {
        let mentions = DemoSample.tweets.flatMap(\.mentions)
        #expect(
            mentions.filter { $0.kind == .hashtag }.allSatisfy { $0.keyword.hasPrefix("#") && $0.keyword.count > 1 })
        #expect(mentions.filter { $0.kind == .user }.allSatisfy { $0.keyword.hasPrefix("@") && $0.keyword.count > 1 })
        let links = mentions.filter { $0.kind == .url }
        #expect(!links.isEmpty)
        #expect(
            links.allSatisfy { $0.keyword.hasPrefix("https://t.co/") && $0.expandedURL?.hasPrefix("https://") == true })
        #expect(mentions.filter { $0.kind != .url }.allSatisfy { $0.expandedURL == nil })
    }

    @Test func textsNeverEndInWhitespace() {
        #expect(DemoSample.tweets.allSatisfy { $0.text.unicodeScalars.last?.properties.isWhitespace == false })
    }

    @Test func hashtagPopularityIsZipfLike() throws {
        var counts: [String: Int] = [:]
        for mention in DemoSample.tweets.flatMap(\.mentions) where mention.kind == .hashtag {
            counts[mention.keyword.lowercased(), default: 0] += 1
        }
        let ranked = counts.values.sorted(by: >)
        try #require(ranked.count > 100)
        #expect(ranked[0] > 10 * ranked[49])
        let top = "#" + DemoGenerator.popularHashtags[0].lowercased()
        #expect(counts[top] == ranked[0])
    }

    @Test func aboutAThirdOfTweetsMentionNothing() {
        let share = Double(DemoSample.tweets.filter(\.mentions.isEmpty).count) / Double(DemoSample.tweets.count)
        #expect((0.25...0.45).contains(share), "share without mentions: \(share)")
    }

    @Test func retweetsAndRepliesAreCommon() {
        let tweets = DemoSample.tweets
        let retweets = tweets.filter { $0.repostedBy != nil }
        let replies = tweets.filter { $0.inReplyToID != nil }
        #expect((0.1...0.2).contains(Double(retweets.count) / Double(tweets.count)))
        #expect((0.06...0.14).contains(Double(replies.count) / Double(tweets.count)))
        #expect(retweets.allSatisfy { $0.repostedBy != $0.author && $0.inReplyToID == nil })
    }

    @Test func repliesAnswerAnEarlierTweetByItsAuthor() throws {
        let byID = Dictionary(uniqueKeysWithValues: DemoSample.tweets.map { ($0.id, $0) })
        for reply in DemoSample.tweets where reply.inReplyToID != nil {
            let replied = try #require(reply.inReplyToID.flatMap { byID[$0] })
            #expect(UInt64(replied.id)! < UInt64(reply.id)!)
            #expect(reply.text.hasPrefix("@" + replied.author.handle + " "))
            #expect(reply.mentions.first?.range == 0..<replied.author.handle.unicodeScalars.count + 1)
        }
    }

    @Test func imagesComeInManyShapes() throws {
        let media = DemoSample.tweets.filter { $0.repostedBy == nil }.flatMap(\.media)
        let ratios = media.map(\.aspectRatio)
        #expect(ratios.contains { $0 >= 2.9 })
        #expect(ratios.contains { $0 > 2 && $0 < 2.5 })
        #expect(ratios.contains { $0 < 0.6 })
        #expect(ratios.contains(1))
        #expect(Set(ratios.map { ($0 * 100).rounded() }).count > 50)
        let counts = DemoSample.tweets.map(\.media.count)
        #expect(counts.filter { $0 == 0 }.count > counts.count / 2)
        #expect(counts.contains(1) && counts.contains(4))
        #expect(media.allSatisfy { $0.url.hasPrefix("/demo/images/") && $0.url.hasSuffix(".svg") })
        let item = try #require(media.first)
        #expect(DemoPicture.svg(forPath: item.url) != nil)
    }

    @Test func textsUseManyScripts() {
        let texts = DemoSample.tweets.map(\.text)
        func some(_ range: ClosedRange<UInt32>) -> Bool {
            texts.contains { $0.unicodeScalars.contains { range.contains($0.value) } }
        }
        #expect(some(0x3040...0x30FF), "Japanese kana")
        #expect(some(0x4E00...0x9FFF), "CJK ideographs")
        #expect(some(0x0600...0x06FF), "Arabic")
        #expect(some(0x0590...0x05FF), "Hebrew")
        #expect(some(0x1F1E6...0x1F1FF), "flags")
        #expect(texts.contains { $0.unicodeScalars.contains("\u{200D}") }, "ZWJ sequences")
        #expect(
            texts.contains { $0.contains("&") } && texts.contains { $0.contains("<") }
                && texts.contains { $0.contains(">") })
    }

    @Test func astralCharactersTouchEntities() {
        let touching = DemoSample.tweets.contains { tweet in
            let scalars = Array(tweet.text.unicodeScalars)
            return tweet.mentions.contains {
                $0.range.lowerBound > 0 && scalars[$0.range.lowerBound - 1].value > 0xFFFF
            }
        }
        #expect(touching)
    }

    @Test func usersAreUniqueAndValid() {
        let users = DemoSample.users
        #expect((1000...5000).contains(users.count))
        #expect(Set(users.map { $0.handle.lowercased() }).count == users.count)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".unicodeScalars)
        #expect(
            users.allSatisfy {
                (1...15).contains($0.handle.count) && $0.handle.unicodeScalars.allSatisfy(allowed.contains)
            })
        #expect(users.allSatisfy { $0.profileImageURL == "/demo/avatars/\($0.handle).svg" })
        let names = users.map(\.name).joined()
        #expect(names.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) })
        #expect(names.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) })
        #expect(names.unicodeScalars.contains { (0x0590...0x05FF).contains($0.value) })
        #expect(names.unicodeScalars.contains { $0.properties.isEmojiPresentation })
        #expect(names.contains("é"))
    }

    @Test func liveTweetsFollowOnAndUsePopularHashtags() throws {
        var generator = DemoGenerator(seed: 42, count: 300, end: DemoSample.end)
        var last: Post?
        while let tweet = generator.next() { last = tweet }
        var previous = try #require(last.flatMap { UInt64($0.id) })
        let popular = Set(DemoGenerator.popularHashtags.map { "#" + $0.lowercased() })
        for second in 1...50 {
            let live = generator.liveTweet(at: DemoSample.end.addingTimeInterval(Double(second) * 3.5))
            let id = try #require(UInt64(live.id))
            #expect(id > previous)
            previous = id
            let hashtags = live.mentions.filter { $0.kind == .hashtag }.map { $0.keyword.lowercased() }
            #expect(!hashtags.isEmpty && hashtags.allSatisfy(popular.contains))
        }
        let sameMoment = generator.liveTweet(at: DemoSample.end.addingTimeInterval(175))
        #expect(try #require(UInt64(sameMoment.id)) > previous)
    }

    @Test func popularHashtagsAreTenDistinctTags() {
        let tags = DemoGenerator.popularHashtags
        #expect(tags.count == 10)
        #expect(Set(tags.map { $0.lowercased() }).count == 10)
        #expect(tags.allSatisfy { !$0.hasPrefix("#") && !$0.isEmpty })
    }
}
