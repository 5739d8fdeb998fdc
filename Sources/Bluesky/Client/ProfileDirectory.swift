import AsyncHTTPClient
import Logging
import Posts
import WireJSON

/// Bluesky's public directory of profiles (`app.bsky.actor.getProfiles` on an AppView, no account needed): DIDs to
/// handles, display names and avatars, 25 at a time.
public struct ProfileDirectory: Sendable {
    /// Bluesky's public AppView; `SMASHTAG_BLUESKY_APPVIEW` chooses another.
    public static let defaultAppView = "https://public.api.bsky.app"
    /// The most actors one request may name.
    public static let batchSize = 25
    let xrpc: XRPC

    public init(
        appView: String = Self.defaultAppView, httpClient: HTTPClient = .shared, policy: BlueskyClient.Policy = .init(),
        logger: Logger = Logger(label: "smashtag.bluesky")
    ) {
        xrpc = XRPC(
            configuration: BlueskyConfiguration(service: appView, credentials: nil), client: httpClient, policy: policy,
            logger: logger)
    }

    /// The profiles of these DIDs (at most `batchSize`) that the directory knows; an account it does not know
    /// (deleted, suspended) is left out. Fails with a `BlueskyError`.
    public func profiles(of dids: [String]) async throws -> [AccountProfile] {
        let answer: JSONValue
        do {
            answer = try await xrpc.query(
                "app.bsky.actor.getProfiles", dids.prefix(Self.batchSize).map { ("actors", $0) }, token: nil)
        } catch let failure as XRPCFailure {
            throw xrpc.error(failure.reason)
        }
        guard let profiles = answer["profiles"]?.array else {
            throw xrpc.error(.malformed("getProfiles answered without profiles"))
        }
        return profiles.compactMap(Self.profile)
    }

    private static func profile(_ view: JSONValue) -> AccountProfile? {
        guard let did = view["did"]?.nonEmptyString else { return nil }
        let avatar = view["avatar"]?.nonEmptyString.flatMap { $0.hasPrefix("https://") ? $0 : nil }
        let name = view["displayName"]?.string.map { String($0.filter { !$0.isNewline }) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        return AccountProfile(
            did: did, handle: view["handle"]?.string, displayName: name, avatarURL: avatar,
            signedInOnly: AccountLabels.asksForSignIn(view["labels"]))
    }
}
