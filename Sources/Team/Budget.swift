import Synchronization

/// What each caller may spend in an hour of what costs the group: searches that reach live networks (their rate
/// limits are shared), dataset downloads and network pages (both read a term's whole history). Per person, per token
/// and per visitor's address; kept by each server (several servers behind a proxy each give their own).
public final class Budget: Sendable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case liveSearches = "live-searches"
        case downloads
        case networks

        var plural: String {
            switch self {
            case .liveSearches: "searches of live networks"
            case .downloads: "dataset downloads"
            case .networks: "network pages"
            }
        }
    }

    /// How many of each an hour.
    public struct Allowance: Sendable, Hashable {
        public var liveSearches: Int
        public var downloads: Int
        public var networks: Int

        public init(liveSearches: Int = 600, downloads: Int = 60, networks: Int = 600) {
            (self.liveSearches, self.downloads, self.networks) = (liveSearches, downloads, networks)
        }

        /// A visitor's, a tenth of a person's.
        public var forVisitors: Allowance {
            Allowance(liveSearches: 0, downloads: 0, networks: max(1, networks / 10))
        }

        func most(of kind: Kind) -> Int {
            switch kind {
            case .liveSearches: liveSearches
            case .downloads: downloads
            case .networks: networks
            }
        }
    }

    private struct Key: Hashable {
        let spender: String
        let kind: Kind
    }

    private static let window = Duration.seconds(3600)
    private let allowance: Allowance
    private let spent = Mutex<[Key: [ContinuousClock.Instant]]>([:])

    public init(_ allowance: Allowance = Allowance()) {
        self.allowance = allowance
    }

    /// Spends one of `kind` for `spender` (`person:7`, `token:abc12345`, `address:…`); throws `Refusal.overBudget`
    /// with the seconds until one is free when the hour's are spent. Visitors get `Allowance.forVisitors`.
    public func spend(_ kind: Kind, by spender: String, isVisitor: Bool = false) throws {
        let most = (isVisitor ? allowance.forVisitors : allowance).most(of: kind)
        let now = ContinuousClock.now
        let wait: Duration? = spent.withLock { spent in
            let key = Key(spender: spender, kind: kind)
            var times = spent[key, default: []].filter { now - $0 < Self.window }
            if times.count >= most {
                spent[key] = times
                return times.first.map { Self.window - (now - $0) } ?? Self.window
            }
            times.append(now)
            spent[key] = times
            return nil
        }
        if let wait { throw Refusal.overBudget(kind, retryAfter: Int(wait.components.seconds) + 1) }
    }
}
