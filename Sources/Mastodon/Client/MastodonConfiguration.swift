import HTTPExchange

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

    private static func token(_ environment: [String: String]) -> BearerToken? {
        let value = environment["SMASHTAG_MASTODON_TOKEN"].map { String($0.filter { !$0.isWhitespace }) } ?? ""
        return value.isEmpty ? nil : BearerToken(value)
    }
}
