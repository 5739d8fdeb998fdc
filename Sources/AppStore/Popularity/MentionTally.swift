import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How many of some posts name each hashtag and user: a post naming one twice counts once. The same counts by the
/// hour of each post's own time, for the trends: a mention's hours add up to its count.
package struct MentionTally: Sendable {
    struct Entry: Sendable {
        let kind: Mention.Kind
        /// Lower-cased with its `#` or `@`: mentions are the same case-insensitively.
        let key: String
        let shown: String
        var count: Int
    }

    /// How many of the posts of one hour name `mentions[mention]`.
    struct HourEntry: Sendable {
        let mention: Int
        let hour: Int
        var count: Int
    }

    private(set) var mentions: [Entry] = []
    private(set) var hours: [HourEntry] = []

    var isEmpty: Bool { mentions.isEmpty }

    init(_ posts: [Post]) {
        var index: [String: Int] = [:]
        var hourIndex: [TrendHour.Key: Int] = [:]
        for post in posts {
            let hour = TrendHour.of(post.created)
            for mention in Self.distinctMentions(of: post) {
                let at =
                    index[mention.key]
                    ?? {
                        index[mention.key] = mentions.count
                        mentions.append(Entry(kind: mention.kind, key: mention.key, shown: mention.shown, count: 0))
                        return mentions.count - 1
                    }()
                mentions[at].count += 1
                let key = TrendHour.Key(mention: at, hour: hour)
                if let slot = hourIndex[key] {
                    hours[slot].count += 1
                } else {
                    hourIndex[key] = hours.count
                    hours.append(HourEntry(mention: at, hour: hour, count: 1))
                }
            }
        }
    }

    /// The hashtags and users a post names, each once (the first spelling), as (kind, key, shown).
    package static func distinctMentions(of post: Post) -> [(kind: Mention.Kind, key: String, shown: String)] {
        // A post names a handful: a linear search, without hashing them into a set.
        var seen: [String] = []
        return post.mentions.compactMap { mention in
            guard mention.kind != .url else { return nil }
            let key = mention.keyword.lowercased()
            guard !seen.contains(key) else { return nil }
            seen.append(key)
            return (mention.kind, key, mention.keyword)
        }
    }
}

/// Trends count by the hour (UTC) of the posts' own times: hours since 1970, so a day is 24 of them. A post dated
/// before 1970 (a broken date) counts in the first hour, so every hour is ≥ 0 and SQLite's integer division by 24 is
/// the floor that Swift's bucket arithmetic uses.
package enum TrendHour {
    struct Key: Hashable {
        let mention: Int
        let hour: Int
    }

    package static func of(_ date: Date) -> Int {
        max(0, Int((date.timeIntervalSince1970 / 3600).rounded(.down)))
    }
}
