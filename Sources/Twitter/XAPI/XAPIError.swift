import HTTPExchange
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a search on the X API failed, as one sentence for the person who ran it.
public enum XAPIError: Error, Sendable, Equatable, ExplainedError {
    /// 401: the token was sent and refused.
    case tokenRejected
    /// 403: the token is valid but may not search (the app's access level).
    case forbidden(detail: String)
    /// 429: until when.
    case rateLimited(retryAt: Date?)
    /// 400: the API's own words on what is wrong (usually the query).
    case badRequest(detail: String)
    /// 5xx, still failing after every retry.
    case serverError(status: Int, attempts: Int)
    case timedOut(seconds: Int, attempts: Int)
    case unreachable(baseURL: String, reason: String)
    /// A body that is not a search response, or one larger than Smashtag accepts.
    case malformedResponse(String)
    /// Any other status.
    case unexpectedStatus(Int)

    public var description: String {
        switch self {
        case .tokenRejected:
            "The X API rejected the bearer token (401 Unauthorized): check SMASHTAG_X_BEARER_TOKEN."
        case .forbidden(let detail):
            "The X API refused the search (403 Forbidden): \(detail)"
        case .rateLimited(let retryAt):
            "The X API rate limit is used up (429 Too Many Requests); \(RetryAdvice.sentence(until: retryAt))."
        case .badRequest(let detail):
            "The X API rejected the search (400 Bad Request): \(detail)"
        case .serverError(let status, let attempts):
            "The X API failed with status \(status)\(Self.times(attempts)); try again later."
        case .timedOut(let seconds, let attempts):
            "The X API did not answer within \(counted(seconds, "second"))\(Self.times(attempts)); try again later."
        case .unreachable(let baseURL, let reason):
            "The X API (\(baseURL)): \(reason)."
        case .malformedResponse(let reason):
            "The X API sent a response Smashtag cannot read: \(reason)."
        case .unexpectedStatus(let status):
            "The X API answered with unexpected status \(status)."
        }
    }

    private static func times(_ attempts: Int) -> String {
        attempts == 1 ? "" : " (\(attempts) attempts)"
    }
}

extension XAPIError: RateLimitRefusal {
    public var isRateLimited: Bool {
        if case .rateLimited = self { return true }
        return false
    }
}
