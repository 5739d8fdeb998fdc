import HTTPExchange

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How to reach the X API: a bearer token and a base URL.
public struct XAPIConfiguration: Sendable {
    public static let defaultBaseURL = "https://api.x.com"
    /// The file in the data directory that may hold the token (its first line), instead of the environment.
    public static let tokenFileName = "x-bearer-token"

    public let token: BearerToken
    /// Without a trailing slash.
    public let baseURL: String

    public init(token: BearerToken, baseURL: String = Self.defaultBaseURL) {
        self.token = token
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// The token from `SMASHTAG_X_BEARER_TOKEN`, else from `x-bearer-token` in the data directory; the base URL from
    /// `SMASHTAG_X_API_BASE`. Nil when no token is configured.
    public static func configured(environment: [String: String], dataDirectory: String) -> XAPIConfiguration? {
        let fromFile = (try? String(contentsOfFile: dataDirectory + "/" + tokenFileName, encoding: .utf8))?
            .split(whereSeparator: \.isNewline).first.map(String.init)
        let token = [environment["SMASHTAG_X_BEARER_TOKEN"], fromFile]
            .compactMap { $0.map { String($0.filter { !$0.isWhitespace }) } }.first { !$0.isEmpty }
        guard let token else { return nil }
        let base = environment["SMASHTAG_X_API_BASE"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBaseURL
        return XAPIConfiguration(token: BearerToken(token), baseURL: base)
    }
}
