import HTTPExchange
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a Bluesky search failed: one sentence that names the service and says what to do. Never holds a token or
/// a password.
public struct BlueskyError: Error, Sendable, Equatable, ExplainedError {
    /// What went wrong, each worded as one sentence by `description`.
    public enum Reason: Sendable, Equatable {
        case needsAppPassword
        case wrongPassword
        /// The session could not be renewed (the refresh token was refused and signing in again failed).
        case sessionRejected(String)
        case accountUnavailable(String)
        case unsupportedQuery(String)
        case badQuery(String)
        /// The service has no such record (`NotFound`): deleted, or never there.
        case notFound(String)
        case forbidden(String)
        case rateLimited(retryAt: Date?)
        case serverError(status: Int)
        case timedOut(seconds: Int)
        case unreachable(String)
        case malformed(String)
        case unexpectedStatus(Int, String?)
    }

    public let service: String
    public let reason: Reason

    public init(service: String, reason: Reason) {
        self.service = service
        self.reason = reason
    }

    public var description: String {
        let name = "Bluesky (\(service))"
        switch reason {
        case .needsAppPassword:
            return
                """
                Bluesky search needs a signed-in account: set SMASHTAG_BLUESKY_HANDLE and \
                SMASHTAG_BLUESKY_APP_PASSWORD 
                """
                    + """
                    to your handle and an app password (make one in the Bluesky app under Settings → Privacy and \
                    security → App passwords).
                    """
        case .wrongPassword:
            return
                """
                \(name) did not accept the handle and app password: check SMASHTAG_BLUESKY_HANDLE and \
                SMASHTAG_BLUESKY_APP_PASSWORD.
                """
        case .sessionRejected(let why):
            return "\(name) ended the session and refused a new one (\(why)); try again later."
        case .accountUnavailable(let why): return "\(name) refused to sign in: \(why)."
        case .unsupportedQuery(let why): return "\(name) cannot search that: \(why)."
        case .badQuery(let why): return "\(name) rejected the search: \(why)."
        case .notFound(let why): return "\(name) has no such post: \(why)."
        case .forbidden(let why): return "\(name) refused the search (403 Forbidden): \(why); try again later."
        case .rateLimited(let retryAt):
            return "\(name) rate-limited Smashtag (429 Too Many Requests); \(RetryAdvice.sentence(until: retryAt))."
        case .serverError(let status): return "\(name) failed with status \(status); try again in a few minutes."
        case .timedOut(let seconds):
            return "\(name) did not answer within \(counted(seconds, "second")); try again later."
        case .unreachable(let why): return "\(name): \(why)."
        case .malformed(let why): return "\(name) sent a response Smashtag cannot read: \(why)."
        case .unexpectedStatus(let status, let detail):
            return "\(name) answered with unexpected status \(status)\(detail.map { " (\($0))" } ?? "")."
        }
    }
}

extension BlueskyError.Reason: TransportFailureReason {}

extension BlueskyError: RateLimitRefusal {
    public var isRateLimited: Bool {
        if case .rateLimited = reason { return true }
        return false
    }
}
