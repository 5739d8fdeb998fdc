import HTTPExchange
import Posts

/// Which Mastodon server to ask, and the token when there is one.
public struct MastodonConfiguration: Sendable {
    public static let defaultInstance = "mastodon.social"

    /// `https://host`, or the full base URL given (proxies, tests); without a trailing slash.
    public let baseURL: String
    public let token: BearerToken?

    /// `instance` is a host (`mastodon.social`) or a base URL (`http://127.0.0.1:9000`).
    public init(instance: String = Self.defaultInstance, token: BearerToken? = nil) {
        let trimmed = String(instance.filter { !$0.isWhitespace })
        let base = trimmed.contains("://") ? trimmed : "https://" + trimmed
        self.baseURL = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.token = token
    }

    /// The server as people name it in messages: its host (and port, when not the default).
    public var serverName: String {
        let afterScheme = baseURL.split(separator: "://", maxSplits: 1).last ?? Substring(baseURL)
        return String(afterScheme.prefix { $0 != "/" })
    }

    /// From `SMASHTAG_MASTODON_INSTANCE` and `SMASHTAG_MASTODON_TOKEN`; nil when no instance is set (Mastodon is then
    /// not among the default sources, though it can still be named).
    public static func configured(environment: [String: String]) -> MastodonConfiguration? {
        guard let instance = environment["SMASHTAG_MASTODON_INSTANCE"], !instance.isEmpty else { return nil }
        return MastodonConfiguration(instance: instance, token: token(environment))
    }

    /// The configured server, or mastodon.social when none is: for a source named on purpose.
    public static func named(environment: [String: String]) -> MastodonConfiguration {
        configured(environment: environment) ?? MastodonConfiguration(token: token(environment))
    }

    /// From `SMASHTAG_MASTODON_INSTANCES` (a comma list): several servers searched as one; nil when it is not set. The
    /// token goes only to the server `SMASHTAG_MASTODON_INSTANCE` names when it is in the list, else to the first.
    public static func fleet(environment: [String: String]) throws(InstanceListError) -> [MastodonConfiguration]? {
        guard let list = environment["SMASHTAG_MASTODON_INSTANCES"] else { return nil }
        var names: [String] = []
        for word in list.split(separator: ",").map({ String($0.filter { !$0.isWhitespace }) }) where !word.isEmpty {
            guard isServerName(word) else { throw .badName(word) }
            if !names.contains(where: { $0.lowercased() == word.lowercased() }) { names.append(word) }
        }
        guard !names.isEmpty else { throw .empty }
        let owner = configured(environment: environment)?.serverName.lowercased()
        let tokenHolder = names.firstIndex { MastodonConfiguration(instance: $0).serverName.lowercased() == owner } ?? 0
        return names.enumerated().map { index, name in
            MastodonConfiguration(instance: name, token: index == tokenHolder ? token(environment) : nil)
        }
    }

    /// A host (`mastodon.social`, `127.0.0.1:8080`), or an `http(s)` address of one.
    private static func isServerName(_ word: String) -> Bool {
        var rest = Substring(word)
        for scheme in ["https://", "http://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = parts.first, !host.isEmpty, host.count <= 253 else { return false }
        if parts.count == 2,
            !(1...5).contains(parts[1].count) || !parts[1].allSatisfy(\.isASCII) || Int(parts[1]) == nil
        {
            return false
        }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    private static func token(_ environment: [String: String]) -> BearerToken? {
        let value = environment["SMASHTAG_MASTODON_TOKEN"].map { String($0.filter { !$0.isWhitespace }) } ?? ""
        return value.isEmpty ? nil : BearerToken(value)
    }
}

/// Why `SMASHTAG_MASTODON_INSTANCES` cannot be used: said once, at start.
public enum InstanceListError: Error, Sendable, Equatable, CustomStringConvertible {
    case badName(String)
    case empty

    public var description: String {
        switch self {
        case .badName(let word):
            """
            SMASHTAG_MASTODON_INSTANCES names “\(word.excerpt(60))”, which is not a server: write host names such as \
            mastodon.social,fosstodon.org, separated by commas.
            """
        case .empty:
            "SMASHTAG_MASTODON_INSTANCES names no server: write host names such as mastodon.social,fosstodon.org."
        }
    }
}
