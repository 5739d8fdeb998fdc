import HTTPExchange
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a Mastodon search failed: one sentence that names the server and says what to do.
public struct MastodonError: Error, Sendable, Equatable, ExplainedError {
    public enum Reason: Sendable, Equatable {
        /// 401 or 422 without a token on a tag timeline.
        case hidesTagTimelines
        /// 401 or 422 without a token elsewhere.
        case needsSignIn
        case tokenRejected
        /// A query with words, and no token to search them with.
        case wordsNeedToken
        /// A query Mastodon cannot answer, and why.
        case unsupportedQuery(String)
        case noSuchAccount(String)
        case forbidden(String)
        case rateLimited(retryAt: Date?)
        case serverError(status: Int)
        case timedOut(seconds: Int)
        case unreachable(String)
        /// A web page, or JSON that is not what the API sends: not a Mastodon server (or not at that address).
        case notMastodon(String)
        case malformed(String)
        case unexpectedStatus(Int, String?)
        /// A 3xx: the API lives elsewhere (the host it names, when it names one).
        case redirected(String?)
        /// Background work leaves the rest of the server's window to people's searches, until it resets.
        case keptForSearches(until: Date)
    }

    public let server: String
    public let reason: Reason

    public init(server: String, reason: Reason) {
        self.server = server
        self.reason = reason
    }

    /// The source first, as every source's failure is said ("Mastodon (mastodon.social) …"), then what happened and
    /// what to do.
    public var description: String {
        let source = "Mastodon (\(server))"
        return switch reason {
        case .hidesTagTimelines:
            """
            \(source) hides hashtag timelines from visitors who are not signed in — try another server or set \
            SMASHTAG_MASTODON_TOKEN.
            """
        case .needsSignIn:
            "\(source) shows this only to signed-in users — set SMASHTAG_MASTODON_TOKEN or try another server."
        case .tokenRejected:
            "\(source) rejected the access token (401 Unauthorized): check SMASHTAG_MASTODON_TOKEN."
        case .wordsNeedToken:
            """
            Without a token, \(source) searches hashtags and users only — search #tag or @user, or set \
            SMASHTAG_MASTODON_TOKEN to search words.
            """
        case .unsupportedQuery(let why):
            "\(source) cannot search that: \(why)."
        case .noSuchAccount(let address):
            "\(source) knows no account @\(address)."
        case .forbidden(let detail):
            "\(source) refused the search (403 Forbidden): \(detail)."
        case .rateLimited(let retryAt):
            "\(source) rate-limited Smashtag (429 Too Many Requests); \(RetryAdvice.sentence(until: retryAt))."
        case .serverError(let status):
            "\(source) failed with status \(status); try again later."
        case .timedOut(let seconds):
            "\(source) did not answer within \(counted(seconds, "second")); try again later."
        case .unreachable(let why):
            "\(source): \(why)."
        case .notMastodon(let what):
            "\(source) does not look like a Mastodon server: \(what)."
        case .malformed(let why):
            "\(source) sent a response Smashtag cannot read: \(why)."
        case .redirected(let host?):
            "\(source) sends its API on to \(host) (a redirect): name \(host) in the list of servers instead."
        case .redirected(nil):
            "\(source) answered with a redirect to no readable address; check the server's name."
        case .keptForSearches(let until):
            "\(source): waiting for its rate limit, kept for searches, until \(RetryAdvice.time(until))."
        case .unexpectedStatus(let status, let detail):
            "\(source) answered with unexpected status \(status)\(detail.map { " (\($0))" } ?? "")."
        }
    }
}

extension MastodonError.Reason: TransportFailureReason {}

extension MastodonError: RateLimitRefusal {
    public var isRateLimited: Bool {
        if case .rateLimited = reason { return true }
        return false
    }
}
