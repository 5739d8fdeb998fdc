import AppStore
import Foundation
import Posts
import WireJSON

/// How a dataset was made, as its `datapackage.json` tells whoever receives it: what was asked for, over which
/// window, from which corpus, when, whether people were pseudonymised, and by which Smashtag.
public struct Provenance: Sendable {
    /// A term's posts (everything counted for it) or a corpus query's matches.
    public enum Subject: Sendable {
        case term(String)
        case query(String)
    }

    public let subject: Subject
    public let window: TimeWindow
    public let made: Date
    public let pseudonymised: Bool
    /// The demo's seed when the corpus holds Smashtag's generated posts: they are not real, and the dataset says so.
    public let demoSeed: UInt64?
    /// How far a term's posts were rechecked with their networks for deletions; nil for a corpus query's.
    public let rechecks: RecheckState?
    /// The consent rules in force when the dataset was made: they decide which posts it holds, and it says so.
    public let consent: ConsentRules

    public init(
        subject: Subject, window: TimeWindow, made: Date, pseudonymised: Bool, demoSeed: UInt64?,
        rechecks: RecheckState? = nil, consent: ConsentRules = .allOn
    ) {
        (self.subject, self.window, self.made) = (subject, window, made)
        (self.pseudonymised, self.demoSeed, self.rechecks, self.consent) = (
            pseudonymised, demoSeed, rechecks, consent
        )
    }

    /// What the dataset says of deletions: whether its posts were rechecked, how many, and the oldest check.
    var deletions: String {
        guard let rechecks, rechecks.checked > 0, let oldest = rechecks.oldestCheck else {
            return """
                Not rechecked: posts their authors deleted after Smashtag fetched them may be included (smashtag \
                corpus recheck asks each network).
                """
        }
        let when = WireDate.iso8601WholeSeconds(Date(millisecondsSince1970: oldest))
        let removed = "posts their networks said were deleted were removed from it and from every count"
        guard rechecks.checked < rechecks.posts else {
            return "Every post was rechecked with its network, the oldest check at \(when); \(removed)."
        }
        return """
            \(rechecks.checked) of the term's \(rechecks.posts) posts were rechecked with their networks, the oldest \
            check at \(when); \(removed). The others may include posts deleted since they were fetched.
            """
    }

    /// Smashtag's release, by its date (the dataset names it, so a reader knows which rules made it).
    public static let smashtagVersion = "2026.11.28"
}

/// What the posts of a dataset turned out to be, gathered as they are written: how many, from which networks and
/// hosts, and the times they span.
struct DatasetSummary: Sendable {
    /// Which kept posts may be exported (`ConsentRules.shows(kept:)`).
    let consent: ConsentRules
    private(set) var posts = 0
    /// Counted under the term but not exported: their authors have not opted in to search.
    private(set) var withheld = 0
    /// Counted under the term but past the keeping time: only their counts are left.
    private(set) var expired = 0
    /// Exported, by authors who show their posts only to people signed in.
    private(set) var signedInOnly = 0
    /// Exported, by authors who have not opted in to search: kept whole while that rule was off, and it still is.
    private(set) var notOptedIn = 0
    private(set) var byNetwork: [String: Int] = [:]
    private(set) var byHost: [String: Int] = [:]
    private(set) var created: ClosedRange<Date>?
    private(set) var counted: ClosedRange<Date>?

    /// Takes in a batch; returns its posts that may be exported.
    mutating func add(_ batch: [CountedPost]) -> [CountedPost] {
        let exported = batch.filter { !$0.expired && consent.shows(kept: $0.post) }
        let past = batch.count { $0.expired }
        expired += past
        withheld += batch.count - exported.count - past
        for item in exported {
            posts += 1
            if item.post.signedInOnly { signedInOnly += 1 }
            if item.post.notIndexable { notOptedIn += 1 }
            byNetwork[item.post.network.rawValue, default: 0] += 1
            // A Mastodon post's host is its author's home server; "" for a post without an address.
            byHost[WebLink.host(of: item.post.url) ?? "", default: 0] += 1
            created = Self.widen(created, with: item.post.created)
            if let when = item.counted { counted = Self.widen(counted, with: when) }
        }
        return exported
    }

    private static func widen(_ range: ClosedRange<Date>?, with date: Date) -> ClosedRange<Date> {
        guard let range else { return date...date }
        return min(range.lowerBound, date)...max(range.upperBound, date)
    }
}
