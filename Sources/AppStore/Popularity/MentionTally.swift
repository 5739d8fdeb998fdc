import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How many of some posts name each hashtag and user: a post naming one twice counts once. The same counts by the
/// hour of each post's own time, for the trends: a mention's hours add up to its count. And how many name each pair
/// of them together (co-mentions), in total and by the hour, for the networks.
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

    /// How many of the posts of one hour name both `mentions[first]` and `mentions[second]` (`first < second`).
    struct PairEntry: Sendable {
        let first: Int
        let second: Int
        let hour: Int
        var weight: Int
    }

    /// A post's pairs come from its first 30 distinct mentions: 435 pairs at most, so that a post stuffed with
    /// hashtags cannot write tens of thousands of rows (documented in the GUIDE's Network section).
    package static let pairedMentionLimit = 30

    private(set) var mentions: [Entry] = []
    private(set) var hours: [HourEntry] = []
    /// By hour; `pairTotals` adds the hours up.
    private(set) var pairs: [PairEntry] = []

    var isEmpty: Bool { mentions.isEmpty }

    init(_ posts: [Post]) {
        var index: [String: Int] = [:]
        var hourIndex: [TrendHour.Key: Int] = [:]
        var pairIndex: [PairKey: Int] = [:]
        for post in posts {
            let hour = TrendHour.of(post.created)
            var named: [Int] = []
            for mention in Self.distinctMentions(of: post) {
                let at =
                    index[mention.key]
                    ?? {
                        index[mention.key] = mentions.count
                        mentions.append(Entry(kind: mention.kind, key: mention.key, shown: mention.shown, count: 0))
                        return mentions.count - 1
                    }()
                mentions[at].count += 1
                named.append(at)
                let key = TrendHour.Key(mention: at, hour: hour)
                if let slot = hourIndex[key] {
                    hours[slot].count += 1
                } else {
                    hourIndex[key] = hours.count
                    hours.append(HourEntry(mention: at, hour: hour, count: 1))
                }
            }
            addPairs(of: named.prefix(Self.pairedMentionLimit), hour: hour, index: &pairIndex)
        }
    }

    private struct PairKey: Hashable {
        let first: Int
        let second: Int
        let hour: Int
    }

    private mutating func addPairs(of named: ArraySlice<Int>, hour: Int, index: inout [PairKey: Int]) {
        for (offset, one) in named.enumerated() {
            for other in named.dropFirst(offset + 1) {
                let key = PairKey(first: min(one, other), second: max(one, other), hour: hour)
                if let slot = index[key] {
                    pairs[slot].weight += 1
                } else {
                    index[key] = pairs.count
                    pairs.append(PairEntry(first: key.first, second: key.second, hour: hour, weight: 1))
                }
            }
        }
    }

    /// The pairs' weights over all hours.
    var pairTotals: [PairEntry] {
        var totals: [PairKey: Int] = [:]
        for pair in pairs {
            totals[PairKey(first: pair.first, second: pair.second, hour: 0), default: 0] += pair.weight
        }
        return totals.map { PairEntry(first: $0.key.first, second: $0.key.second, hour: 0, weight: $0.value) }
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

/// Two mentions' ids, the lower first: how the stores key a pair.
struct MentionPair: Hashable {
    let mention: Int64
    let partner: Int64

    init(_ one: Int64, _ other: Int64) {
        (mention, partner) = (min(one, other), max(one, other))
    }

    init?(_ tally: MentionTally, _ pair: MentionTally.PairEntry, ids: [String: Int64]) {
        guard let one = ids[tally.mentions[pair.first].key], let other = ids[tally.mentions[pair.second].key] else {
            return nil
        }
        self.init(one, other)
    }

    private init(unordered mention: Int64, _ partner: Int64) {
        (self.mention, self.partner) = (mention, partner)
    }

    var reversed: MentionPair { MentionPair(unordered: partner, mention) }
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
