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

/// Live search on the X API v2 (`GET /2/tweets/search/recent`), behind the same interface as the corpus.
///
/// Every request has a deadline and a bounded body; 5xx answers and timeouts are retried a few times with
/// growing pauses; everything else fails at once with an `XAPIError` that says what to do.
public struct XAPIClient: PostSource {
    /// Limits and retries; tests shorten them.
    public struct Policy: Sendable {
        public var deadline: Duration = .seconds(10)
        public var maximumBodyBytes = 8 << 20
        public var attempts = 3
        /// The pause before the second attempt; it doubles for each one after.
        public var firstBackoff: Duration = .milliseconds(500)

        public init() {}
    }

    let configuration: XAPIConfiguration
    let policy: Policy
    let logger: Logger
    /// What the API's `x-rate-limit-*` headers last said.
    public let budget: RateLimitBudget?
    private let service: HTTPService

    public init(
        configuration: XAPIConfiguration, httpClient: HTTPClient = .shared, policy: Policy = Policy(),
        logger: Logger = Logger(label: "smashtag.x-api")
    ) {
        (self.configuration, self.policy, self.logger) = (configuration, policy, logger)
        let budget = RateLimitBudget()
        self.budget = budget
        service = HTTPService(
            client: httpClient, deadline: policy.deadline, maximumBodyBytes: policy.maximumBodyBytes, budget: budget
        ) { [base = configuration.baseURL] in XAPIError(transport: $0.reason(), baseURL: base) }
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        try XUserNames.check(request.query)
        let body = try await fetch(RecentSearchURL(baseURL: configuration.baseURL, request: request).string)
        return try RecentSearchPage(body: body).page(for: request)
    }

    /// The body of a 200 answer, retrying what may pass on its own.
    func fetch(_ url: String) async throws -> [UInt8] {
        var attempt = 1
        while true {
            do {
                return try await fetchOnce(url, attempt: attempt)
            } catch let error as XAPIError where attempt < policy.attempts && error.isWorthRetrying {
                logger.debug("retrying the X API", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
                try await Task.sleep(for: policy.firstBackoff * (1 << (attempt - 1)))
                attempt += 1
            } catch let error as XAPIError {
                throw error.after(attempts: attempt)
            }
        }
    }

    private func fetchOnce(_ url: String, attempt: Int) async throws -> [UInt8] {
        let (status, headers, body) = try await service.send(
            HTTPClientRequest(url: url), bearer: configuration.token.value)
        guard status == .ok else {
            logger.debug(
                "X API error",
                metadata: ["status": "\(status.code)", "body": "\(String(decoding: body.prefix(500), as: UTF8.self))"])
            throw XAPIError(status: status, headers: headers, body: body, attempt: attempt)
        }
        return body
    }
}

extension RecentSearchPage {
    /// The page for `request`, cut to its count, with its follow-on requests: *older* by the API's `next_token`, or
    /// by `until_id` when the page was cut (a count under 10, the API's smallest page).
    func page(for request: SearchRequest) -> SearchPage {
        let shown = Array(tweets.prefix(request.count))
        let cut = shown.count < tweets.count
        let older = request.older(after: shown, hasMore: cut || nextToken != nil, token: cut ? nil : nextToken)
        return SearchPage(posts: shown, newer: request.newer(after: shown), older: older, problems: problems)
    }
}

extension XAPIError {
    /// What a failed answer means.
    init(status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8], attempt: Int) {
        let detail = JSONValue.apiErrorDetail(in: body)
        switch status.code {
        case 400: self = .badRequest(detail: detail ?? "no reason given")
        case 401: self = .tokenRejected
        case 403: self = .forbidden(detail: detail ?? "the token's app may not use this endpoint")
        case 429: self = .rateLimited(retryAt: RateLimitHeaders.reset(headers))
        case 500...599: self = .serverError(status: Int(status.code), attempts: attempt)
        default: self = .unexpectedStatus(Int(status.code))
        }
    }

    var isWorthRetrying: Bool {
        switch self {
        case .serverError, .timedOut: true
        default: false
        }
    }

    /// What is said after the last of `attempts`: how many it took, where that is worth saying.
    func after(attempts: Int) -> XAPIError {
        switch self {
        case .timedOut(let seconds, _): .timedOut(seconds: seconds, attempts: attempts)
        default: self
        }
    }

    /// An exchange that got no answer, as the X client words it.
    init(transport reason: Transport, baseURL: String) {
        switch reason {
        case .malformed(let why): self = .malformedResponse(why)
        case .timedOut(let seconds): self = .timedOut(seconds: seconds, attempts: 1)
        case .unreachable(let why): self = .unreachable(baseURL: baseURL, reason: why)
        }
    }

    /// The failures every client shares, as the X client receives them (`HTTPExchangeFailure.reason()`).
    enum Transport: TransportFailureReason {
        case malformed(String)
        case timedOut(seconds: Int)
        case unreachable(String)
    }
}
