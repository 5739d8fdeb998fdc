import Posts
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What people chose about their own posts, kept to unless an admin turns a rule off (`smashtag consent off`), which
/// the audit trail and every dataset made after then record.
public enum ConsentRule: String, CaseIterable, Sendable, Codable {
    /// Posts of Mastodon accounts that have not opted in to search (`indexable: false`) are counted but never kept or
    /// exported whole (`Post.notIndexable`).
    case mastodonIndexable = "mastodon-indexable"
    /// Posts of Bluesky accounts labelled `!no-unauthenticated` are never shown to visitors who are not signed in
    /// (`Post.signedInOnly`).
    case blueskySignedInOnly = "bluesky-signed-in-only"

    /// What the rule keeps to, in a sentence.
    public var sentence: String {
        switch self {
        case .mastodonIndexable:
            "Posts of Mastodon accounts not opted in to search are counted, never kept or exported whole."
        case .blueskySignedInOnly:
            "Posts of Bluesky accounts asking for sign-in are never shown to visitors."
        }
    }
}

/// Which rules are kept to: every rule is on unless turned off, and then since when.
public struct ConsentRules: Sendable, Hashable {
    /// The rules turned off, each with when it was.
    public let off: [ConsentRule: Date]

    public init(off: [ConsentRule: Date] = [:]) {
        self.off = off
    }

    public static let allOn = ConsentRules()

    public func isOn(_ rule: ConsentRule) -> Bool { off[rule] == nil }

    /// Whether a post may be kept whole: not when its author has not opted in to search and that rule is on.
    public func keepsWhole(_ post: Post) -> Bool {
        !post.notIndexable || !isOn(.mastodonIndexable)
    }

    /// Whether a kept post may be shown again or exported: a withheld one never (it has nothing to show), one kept
    /// whole while the rule was off only while it still is.
    public func shows(kept post: Post) -> Bool {
        !post.notIndexable || (!isOn(.mastodonIndexable) && !post.isWithheld)
    }
}

extension AppDatabase {
    /// The rules as the store holds them, read again at most every few seconds: another process (`smashtag consent`)
    /// may change them while a server runs.
    public func consentRules() async throws -> ConsentRules {
        if let known = consent.current() { return known }
        let rules = try await store.consentRules()
        consent.remember(rules)
        return rules
    }

    /// Turns a rule on or off as of `now`; false when it already was.
    @discardableResult
    public func setConsentRule(_ rule: ConsentRule, on: Bool, at now: Date = Date()) async throws -> Bool {
        defer { consent.forget() }
        return try await store.setConsentRule(rule, on: on, at: now.millisecondsSince1970)
    }
}

/// The rules read last and when, shared by every copy of an `AppDatabase`.
final class ConsentCache: Sendable {
    /// How long a reading holds: a rule changed by another process is kept to within this.
    static let lifetime: Duration = .seconds(5)
    private let state = Mutex<(rules: ConsentRules, read: ContinuousClock.Instant)?>(nil)

    func current() -> ConsentRules? {
        state.withLock { known in
            guard let known, known.read.duration(to: .now) < Self.lifetime else { return nil }
            return known.rules
        }
    }

    func remember(_ rules: ConsentRules) { state.withLock { $0 = (rules, .now) } }

    func forget() { state.withLock { $0 = nil } }
}

/// The rules as the store keeps them: a row per rule turned off; times in milliseconds since 1970.
protocol ConsentStore: Sendable {
    func consentRules() async throws -> ConsentRules
    /// False when the rule already was as asked.
    func setConsentRule(_ rule: ConsentRule, on: Bool, at time: Int64) async throws -> Bool
}

/// The table of rules turned off: SQLite `v12`, PostgreSQL `v9`.
enum ConsentRuleSchema {
    static let sqlite = "CREATE TABLE consentRuleOff (name TEXT PRIMARY KEY, since INTEGER NOT NULL) WITHOUT ROWID"
    static let postgres = "CREATE TABLE consent_rule_off (name text PRIMARY KEY, since bigint NOT NULL)"

    /// The rows read, a rule this build does not know (a newer one's) left out.
    static func rules(_ rows: [(name: String, since: Int64)]) -> ConsentRules {
        ConsentRules(
            off: Dictionary(
                rows.compactMap { row in
                    ConsentRule(rawValue: row.name).map { ($0, Date(millisecondsSince1970: row.since)) }
                }, uniquingKeysWith: { first, _ in first }))
    }
}
