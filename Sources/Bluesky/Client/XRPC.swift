import AsyncHTTPClient
import HTTPExchange
import Logging
import NIOCore
import NIOHTTP1
import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Calls to one atproto service (`/xrpc/METHOD`): a deadline each, bounded bodies; transport failures as a
/// `BlueskyError`, answers other than 200 as an `XRPCFailure` for the caller to read.
struct XRPC: Sendable {
    let configuration: BlueskyConfiguration
    let policy: BlueskyClient.Policy
    let logger: Logger
    /// What the service's `RateLimit-*` headers last said.
    let budget: RateLimitBudget
    private let service: HTTPService

    init(configuration: BlueskyConfiguration, client: HTTPClient, policy: BlueskyClient.Policy, logger: Logger) {
        (self.configuration, self.policy, self.logger) = (configuration, policy, logger)
        let budget = RateLimitBudget()
        self.budget = budget
        service = HTTPService(
            client: client, deadline: policy.deadline, maximumBodyBytes: policy.maximumBodyBytes, budget: budget
        ) { [name = configuration.serviceName] in BlueskyError(service: name, reason: $0.reason()) }
    }

    func error(_ reason: BlueskyError.Reason) -> BlueskyError {
        BlueskyError(service: configuration.serviceName, reason: reason)
    }

    /// A query (GET) with its parameters, in order (repeated names for arrays); without a token on a public service.
    func query(_ method: String, _ parameters: [(String, String)], token: String?) async throws -> JSONValue {
        let query = parameters.map { "\($0.0)=\(URLQuery.encode($0.1))" }.joined(separator: "&")
        let request = HTTPClientRequest(
            url: configuration.serviceURL + "/xrpc/" + method + (query.isEmpty ? "" : "?" + query))
        return try await send(request, method: method, token: token)
    }

    /// A procedure (POST) with a JSON body, or none.
    func procedure(_ method: String, body: [UInt8]?, token: String?) async throws -> JSONValue {
        var request = HTTPClientRequest(url: configuration.serviceURL + "/xrpc/" + method)
        request.method = .POST
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        return try await send(request, method: method, token: token)
    }

    private func send(_ request: HTTPClientRequest, method: String, token: String?) async throws -> JSONValue {
        let (status, headers, body) = try await service.send(request, bearer: token)
        logger.debug(
            "bluesky",
            metadata: [
                "method": "\(method)", "status": "\(status.code)",
                "remaining": "\(headers.first(name: "ratelimit-remaining") ?? "?")",
            ])
        let json = try? JSONValue.document(body)
        guard status == .ok else {
            throw XRPCFailure(
                status: Int(status.code), error: json?["error"]?.nonEmptyString,
                message: json?["message"]?.nonEmptyString, headers: headers)
        }
        guard let json else {
            let isPage = body.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "<")
            throw error(
                .malformed(
                    isPage ? "it answered \(method) with a web page, not XRPC" : "its answer to \(method) is not JSON"))
        }
        return json
    }
}

/// An XRPC answer other than 200: its status, and the `error` and `message` of its body.
struct XRPCFailure: Error {
    let status: Int
    let error: String?
    let message: String?
    let headers: HTTPHeaders

    /// The access token is no longer good: renew the session and ask again. Servers say so with 400 or 401.
    var isExpiredSession: Bool {
        ["ExpiredToken", "InvalidToken"].contains(error ?? "") || (status == 401 && error != "AuthenticationRequired")
    }

    /// What the failure means for a search (signing in words a 401 as a wrong password itself).
    var reason: BlueskyError.Reason {
        let detail = message ?? error
        switch status {
        case 400 where error == "NotFound": return .notFound(detail ?? "not found")
        case 400: return .badQuery(detail ?? "no reason given")
        case 401: return .sessionRejected(detail ?? "not signed in")
        case 403: return .forbidden(detail ?? "no reason given")
        case 429: return .rateLimited(retryAt: RateLimitHeaders.reset(headers))
        case 500...599: return .serverError(status: status)
        default: return .unexpectedStatus(status, detail)
        }
    }

}
