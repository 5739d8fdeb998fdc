import HTTPExchange
import Posts

/// Where to search Bluesky, and as whom: search needs a signed-in account (since January 2025), and an app password
/// is enough.
public struct BlueskyConfiguration: Sendable {
    public static let defaultService = "https://bsky.social"

    /// A handle and its app password; the password never reaches a log, a message or a page.
    public struct Credentials: Sendable {
        public let handle: String
        public let appPassword: BearerToken

        public init(handle: String, appPassword: BearerToken) {
            self.handle = handle
            self.appPassword = appPassword
        }
    }

    /// The service's base URL, without a trailing slash.
    public let serviceURL: String
    public let credentials: Credentials?
    /// Where the session's refresh token is kept between runs (mode 0600); nil keeps it in memory only.
    public let sessionFile: String?

    public init(service: String = Self.defaultService, credentials: Credentials?, sessionFile: String? = nil) {
        let trimmed = String(service.filter { !$0.isWhitespace })
        let base = trimmed.contains("://") ? trimmed : "https://" + trimmed
        serviceURL = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.credentials = credentials
        self.sessionFile = sessionFile
    }

    /// The service as people name it in messages: its host (and port, when not the default).
    public var serviceName: String {
        let afterScheme = serviceURL.split(separator: "://", maxSplits: 1).last ?? Substring(serviceURL)
        return String(afterScheme.prefix { $0 != "/" })
    }

    /// From `SMASHTAG_BLUESKY_HANDLE`, `SMASHTAG_BLUESKY_APP_PASSWORD` and `SMASHTAG_BLUESKY_SERVICE`; nil without
    /// both credentials (Bluesky is then not among the default sources, though it can still be named).
    public static func configured(environment: [String: String], dataDirectory: String?) -> BlueskyConfiguration? {
        let configuration = named(environment: environment, dataDirectory: dataDirectory)
        return configuration.credentials == nil ? nil : configuration
    }

    /// The configured service, with or without credentials: for a source named on purpose, which then says what
    /// is missing.
    public static func named(environment: [String: String], dataDirectory: String?) -> BlueskyConfiguration {
        let handle = value(environment["SMASHTAG_BLUESKY_HANDLE"]).map {
            $0.hasPrefix("@") ? String($0.dropFirst()) : $0
        }
        let password = value(environment["SMASHTAG_BLUESKY_APP_PASSWORD"])
        let credentials = handle.flatMap { handle in
            password.map { Credentials(handle: handle, appPassword: BearerToken($0)) }
        }
        return BlueskyConfiguration(
            service: value(environment["SMASHTAG_BLUESKY_SERVICE"]) ?? defaultService, credentials: credentials,
            sessionFile: dataDirectory.map { $0 + "/bluesky-session" }
        )
    }

    private static func value(_ text: String?) -> String? {
        let trimmed = text.map { String($0.filter { !$0.isWhitespace }) } ?? ""
        return trimmed.isEmpty ? nil : trimmed
    }
}
