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
    let httpClient: HTTPClient
    let policy: Policy
    let logger: Logger
    /// What the API's `x-rate-limit-*` headers last said.
    public let budget: RateLimitBudget? = RateLimitBudget()

    public init(
        configuration: XAPIConfiguration, httpClient: HTTPClient = .shared, policy: Policy = Policy(),
        logger: Logger = Logger(label: "smashtag.x-api")
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.policy = policy
        self.logger = logger
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        try XUserNames.check(request.query)
        let body = try await fetch(RecentSearchURL(baseURL: configuration.baseURL, request: request).string)
        return try RecentSearchPage(body: body).page(for: request)
    }

    /// The body of a 200 answer, retrying what may pass on its own.
    private func fetch(_ url: String) async throws -> [UInt8] {
        var attempt = 1
        while true {
            do {
                return try await fetchOnce(url, attempt: attempt)
            } catch let error as XAPIError where attempt < policy.attempts && error.isWorthRetrying {
                logger.debug("retrying the X API", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
                try await Task.sleep(for: policy.firstBackoff * (1 << (attempt - 1)))
                attempt += 1
            }
        }
    }

    private func fetchOnce(_ url: String, attempt: Int) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(configuration.token.value)")
        request.headers.add(name: "User-Agent", value: "Smashtag")
        let (status, headers, body) = try await send(request, attempt: attempt)
        guard status == .ok else {
            logger.debug(
                "X API error",
                metadata: ["status": "\(status.code)", "body": "\(String(decoding: body.prefix(500), as: UTF8.self))"])
            throw XAPIError(status: status, headers: headers, body: body, attempt: attempt)
        }
        return body
    }

    private func send(
        _ request: HTTPClientRequest, attempt: Int
    ) async throws -> (HTTPResponseStatus, HTTPHeaders, [UInt8]) {
        do {
            return try await HTTPExchange.send(
                request, with: httpClient, deadline: policy.deadline, maximumBodyBytes: policy.maximumBodyBytes,
                budget: budget)
        } catch let failure as HTTPExchangeFailure {
            switch failure {
            case .tooLarge(let megabytes): throw XAPIError.malformedResponse("the body is larger than \(megabytes) MB")
            case .timedOut(let seconds): throw XAPIError.timedOut(seconds: seconds, attempts: attempt)
            case .unreachable(let why): throw XAPIError.unreachable(baseURL: configuration.baseURL, reason: why)
            }
        }
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
}
