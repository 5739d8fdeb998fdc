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
    /// Who acted on whom (the conversation networks), by hour; their users are entries of `mentions`, with a count of
    /// 0 when the posts did not name them.
    private(set) var interactions: [InteractionEntry] = []
    /// The posts replied to and quoted.
    private(set) var interactedPosts: [InteractedPostEntry] = []

    private var index: [String: Int] = [:]
    private var hourIndex: [TrendHour.Key: Int] = [:]
    private var pairIndex: [PairKey: Int] = [:]
    private var interactionIndex: [InteractionKey: Int] = [:]
    private var interactedPostIndex: [InteractedPostKey: Int] = [:]

    var isEmpty: Bool { mentions.isEmpty && interactedPosts.isEmpty }

    /// The posts as the store keeps them: a withheld post (`Post.withheld`) keeps no author, so it acts on no one.
    init(_ posts: [Post]) {
        for post in posts { add(post) }
    }

    /// The mentions the posts name and act on, each once, in the order met, their counts 0 and nothing else tallied:
    /// what numbering them takes.
    init(mentionsOf posts: [Post]) {
        for post in posts {
            for mention in Self.distinctMentions(of: post) {
                _ = place(kind: mention.kind, key: mention.key, shown: mention.shown)
            }
            if let interaction = Interaction(post) { _ = placeUsers(of: interaction) }
        }
    }

    mutating func add(_ post: Post) {
        let hour = TrendHour.of(post.created)
        var named: [Int] = []
        for mention in Self.distinctMentions(of: post) {
            let at = place(kind: mention.kind, key: mention.key, shown: mention.shown)
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
        addPairs(of: named.prefix(Self.pairedMentionLimit), hour: hour)
        if let interaction = Interaction(post) { add(interaction, hour: hour) }
    }

    /// A mention's place in `mentions`, added with a count of 0 when new.
    private mutating func place(kind: Mention.Kind, key: String, shown: String) -> Int {
        if let at = index[key] { return at }
        index[key] = mentions.count
        mentions.append(Entry(kind: kind, key: key, shown: shown, count: 0))
        return mentions.count - 1
    }

    private struct PairKey: Hashable {
        let first: Int
        let second: Int
        let hour: Int
    }

    private mutating func addPairs(of named: ArraySlice<Int>, hour: Int) {
        for (offset, one) in named.enumerated() {
            for other in named.dropFirst(offset + 1) {
                let key = PairKey(first: min(one, other), second: max(one, other), hour: hour)
                if let slot = pairIndex[key] {
                    pairs[slot].weight += 1
                } else {
                    pairIndex[key] = pairs.count
                    pairs.append(PairEntry(first: key.first, second: key.second, hour: hour, weight: 1))
                }
            }
        }
    }

    /// `mentions[source]` acted on `mentions[target]` in `weight` of the posts of one hour.
    struct InteractionEntry: Sendable {
        let kind: InteractionKind
        let source: Int
        let target: Int
        let hour: Int
        var weight: Int
    }

    /// A post that `count` of the posts replied to or quoted; its author's place in `mentions` when a post said who.
    struct InteractedPostEntry: Sendable {
        let kind: InteractionKind
        let post: PostKey
        var author: Int?
        var count: Int
    }

    private struct InteractionKey: Hashable {
        let kind: InteractionKind
        let source: Int
        let target: Int
        let hour: Int
    }

    private struct InteractedPostKey: Hashable {
        let kind: InteractionKind
        let post: PostKey
    }

    /// The places of the user who acted and of the one acted on, if the post said who.
    private mutating func placeUsers(of interaction: Interaction) -> (source: Int, target: Int?) {
        let source = place(kind: .user, key: interaction.source.key, shown: interaction.source.shown)
        return (source, interaction.target.map { place(kind: .user, key: $0.key, shown: $0.shown) })
    }

    private mutating func add(_ interaction: Interaction, hour: Int) {
        let (source, target) = placeUsers(of: interaction)
        if let target {
            let key = InteractionKey(kind: interaction.kind, source: source, target: target, hour: hour)
            if let slot = interactionIndex[key] {
                interactions[slot].weight += 1
            } else {
                interactionIndex[key] = interactions.count
                interactions.append(
                    InteractionEntry(kind: key.kind, source: source, target: target, hour: hour, weight: 1))
            }
        }
        guard let post = interaction.post else { return }
        let key = InteractedPostKey(kind: interaction.kind, post: post)
        if let slot = interactedPostIndex[key] {
            interactedPosts[slot].count += 1
            interactedPosts[slot].author = interactedPosts[slot].author ?? target
        } else {
            interactedPostIndex[key] = interactedPosts.count
            interactedPosts.append(InteractedPostEntry(kind: key.kind, post: post, author: target, count: 1))
        }
    }

    /// The same tally with its interactions alone (its mentions' counts at 0, no hours, no pairs): what a post reduced
    /// to its counts takes out of them, and what posts counted before the interactions were add.
    var interactionsOnly: MentionTally {
        var only = self
        only.hours = []
        only.pairs = []
        for at in only.mentions.indices { only.mentions[at].count = 0 }
        return only
    }

    /// The interactions' weights over all hours.
    var interactionTotals: [InteractionEntry] {
        var totals: [InteractionKey: Int] = [:]
        for entry in interactions {
            totals[InteractionKey(kind: entry.kind, source: entry.source, target: entry.target, hour: 0), default: 0] +=
                entry.weight
        }
        return totals.map {
            InteractionEntry(kind: $0.key.kind, source: $0.key.source, target: $0.key.target, hour: 0, weight: $0.value)
        }
    }

    /// Per kind and user, how many interactions they made and received.
    var interactionUsers: [(kind: InteractionKind, user: Int, sent: Int, received: Int)] {
        struct Key: Hashable {
            let kind: InteractionKind
            let user: Int
        }
        var sums: [Key: (sent: Int, received: Int)] = [:]
        for entry in interactions {
            sums[Key(kind: entry.kind, user: entry.source), default: (0, 0)].sent += entry.weight
            sums[Key(kind: entry.kind, user: entry.target), default: (0, 0)].received += entry.weight
        }
        return sums.map { (kind: $0.key.kind, user: $0.key.user, sent: $0.value.sent, received: $0.value.received) }
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
