import Foundation
import HTTPExchange
import Logging
import Posts
import WireJSON

/// The signed-in session: created from the app password (`com.atproto.server.createSession`), renewed with its
/// refresh token when the access token expires (`refreshSession`), and created again when that is refused. The
/// refresh token is kept in a file readable by its owner only, so a restart does not sign in again; tokens are
/// never logged or shown. The file holds the service, the handle and the token, one per line: a session is reused
/// only by the account and service it belongs to.
actor BlueskySession {
    private let xrpc: XRPC
    private var accessToken: String?
    private var refreshToken: String?
    private var hasReadFile = false
    /// The renewal under way, which concurrent searches wait for rather than signing in again each.
    private var renewal: Task<String, any Error>?

    init(xrpc: XRPC) {
        self.xrpc = xrpc
    }

    /// The access token, signing in first when there is none.
    func token() async throws -> String {
        if let accessToken { return accessToken }
        return try await renew(replacing: nil)
    }

    /// A new access token after `expired` was refused (unless another search has already renewed it).
    func renew(replacing expired: String?) async throws -> String {
        if let expired, let accessToken, accessToken != expired { return accessToken }
        if let renewal { return try await renewal.value }
        let task = Task { try await self.signIn() }
        renewal = task
        defer { renewal = nil }
        return try await task.value
    }

    private func signIn() async throws -> String {
        guard let credentials = xrpc.configuration.credentials else { throw xrpc.error(.needsAppPassword) }
        readRefreshToken()
        if let refreshToken {
            do {
                return try keep(
                    try await xrpc.procedure("com.atproto.server.refreshSession", body: nil, token: refreshToken))
            } catch let failure as XRPCFailure where [400, 401].contains(failure.status) {
                // The refresh token is expired or revoked: sign in again below. (A 429 or 5xx is said as it is:
                // signing in has the stricter rate limit.)
            } catch let failure as XRPCFailure {
                throw xrpc.error(failure.reason)
            }
        }
        do {
            return try keep(
                try await xrpc.procedure("com.atproto.server.createSession", body: Self.body(credentials), token: nil))
        } catch let failure as XRPCFailure {
            throw xrpc.error(Self.signInReason(failure))
        }
    }

    private static func body(_ credentials: BlueskyConfiguration.Credentials) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.member("identifier", credentials.handle)
        json.member("password", credentials.appPassword.value)
        json.endObject()
        return json.output.bytes
    }

    private static func signInReason(_ failure: XRPCFailure) -> BlueskyError.Reason {
        switch (failure.status, failure.error) {
        case (401, _): .wrongPassword
        case (400, "AccountTakedown"), (400, "AuthFactorTokenRequired"), (400, "AccountDeactivated"):
            .accountUnavailable(failure.message ?? failure.error ?? "no reason given")
        case (400, _): .sessionRejected(failure.message ?? failure.error ?? "no reason given")
        default: failure.reason
        }
    }

    /// Takes the tokens of a session answer; returns the access token.
    private func keep(_ session: JSONValue) throws -> String {
        guard let access = session["accessJwt"]?.nonEmptyString, let refresh = session["refreshJwt"]?.nonEmptyString
        else {
            throw xrpc.error(.malformed("its session has no tokens"))
        }
        accessToken = access
        refreshToken = refresh
        writeRefreshToken(refresh)
        return access
    }

    /// The kept refresh token, when it is this service's and handle's.
    private func readRefreshToken() {
        guard !hasReadFile else { return }
        hasReadFile = true
        guard let path = xrpc.configuration.sessionFile, let data = FileManager.default.contents(atPath: path) else {
            return
        }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        guard lines.count == 3, lines[0] == xrpc.configuration.serviceURL,
            lines[1] == xrpc.configuration.credentials?.handle,
            !lines[2].isEmpty
        else { return }
        refreshToken = lines[2]
    }

    /// Written whole to a new file created with mode 0600 (never readable by others, not even for a moment), then
    /// renamed over the old one: never half a token.
    private func writeRefreshToken(_ token: String) {
        guard let path = xrpc.configuration.sessionFile, let handle = xrpc.configuration.credentials?.handle else {
            return
        }
        let temporary = path + ".new"
        unlink(temporary)
        let contents = Array((xrpc.configuration.serviceURL + "\n" + handle + "\n" + token + "\n").utf8)
        let file = open(temporary, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        let written = file >= 0 && contents.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == contents.count
        if file >= 0 { close(file) }
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            xrpc.logger.warning("could not keep the Bluesky session in \(path); the next start signs in again")
            return
        }
    }
}
