import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Posts

/// One request to a live service the way every source sends it: a deadline for the whole exchange and a bound on
/// the body, so a slow or hostile service can neither hold a page nor fill memory.
package enum HTTPExchange {
    /// The answer, whatever its status; transport failures as an `HTTPExchangeFailure` for the source to word. A
    /// cancelled search (another source failed, the client left) stays a `CancellationError`, not a network failure.
    /// `budget` hears every answer's rate-limit headers, and of a 429.
    package static func send(
        _ request: HTTPClientRequest, with client: HTTPClient, deadline: Duration, maximumBodyBytes: Int,
        budget: RateLimitBudget? = nil
    ) async throws -> (status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8]) {
        do {
            let response = try await client.execute(request, deadline: .now() + .nanoseconds(deadline.nanoseconds))
            if let budget { RateLimitHeaders.update(budget, status: response.status, headers: response.headers) }
            let body = try await response.body.collect(upTo: maximumBodyBytes)
            return (response.status, response.headers, Array(body.readableBytesView))
        } catch is NIOTooManyBytesError {
            throw HTTPExchangeFailure.tooLarge(megabytes: maximumBodyBytes >> 20)
        } catch let failure as HTTPClientError
            where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(failure)
        {
            throw HTTPExchangeFailure.timedOut(seconds: Int(deadline.components.seconds))
        } catch let failure as HTTPClientError where failure == .cancelled {
            throw CancellationError()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw HTTPExchangeFailure.unreachable(reason(error))
        }
    }

    /// Transport errors in words for people: what happened and what to check, never a type's name or an error code
    /// (NIO's `SocketAddressError.UnknownHost: Name or service not known (error -2)` is "the name does not resolve").
    package static func reason(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") {
            return "the connection was refused; check the address and that the service is running"
        }
        let unresolved = ["UnknownHost", "Name or service not known", "NXDOMAIN", "lookup", "resolve", "DNS"]
        if unresolved.contains(where: text.contains) {
            return "the name does not resolve; check the address or the network"
        }
        if text.contains("SSL") || text.contains("TLS") || text.contains("handshake") || text.contains("certificate") {
            return "the secure connection failed; check the address and this computer's clock"
        }
        return "the connection failed; check the address or the network"
    }
}

/// Why an exchange got no answer.
package enum HTTPExchangeFailure: Error, Sendable {
    case tooLarge(megabytes: Int)
    case timedOut(seconds: Int)
    case unreachable(String)
}

/// How a client's error words a failed exchange: an answer it cannot read (too large, here), none in time, no
/// connection. Each network's error reasons have these three; `HTTPExchangeFailure.reason()` is the one mapping.
package protocol TransportFailureReason: Sendable {
    static func malformed(_ reason: String) -> Self
    static func timedOut(seconds: Int) -> Self
    static func unreachable(_ reason: String) -> Self
}

extension HTTPExchangeFailure {
    /// The failure in a client's own words.
    package func reason<Reason: TransportFailureReason>() -> Reason {
        switch self {
        case .tooLarge(let megabytes): .malformed("the body is larger than \(megabytes) MB")
        case .timedOut(let seconds): .timedOut(seconds: seconds)
        case .unreachable(let why): .unreachable(why)
        }
    }
}

/// One client's live service as every request to it goes out: its HTTP client, the deadline and the bound on the
/// body, the rate-limit budget its answers feed, the headers every request carries (`User-Agent`, JSON asked for,
/// the bearer token when there is one), and the client's own error for an exchange that got no answer.
package struct HTTPService: Sendable {
    let client: HTTPClient
    let deadline: Duration
    let maximumBodyBytes: Int
    let budget: RateLimitBudget?
    let failure: @Sendable (HTTPExchangeFailure) -> any Error

    package init(
        client: HTTPClient, deadline: Duration, maximumBodyBytes: Int, budget: RateLimitBudget?,
        failure: @escaping @Sendable (HTTPExchangeFailure) -> any Error
    ) {
        (self.client, self.deadline, self.maximumBodyBytes, self.budget) = (client, deadline, maximumBodyBytes, budget)
        self.failure = failure
    }

    /// The answer, whatever its status; a transport failure as the client's error.
    package func send(
        _ request: HTTPClientRequest, bearer: String? = nil
    ) async throws -> (status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8]) {
        var request = request
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Smashtag")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        do {
            return try await HTTPExchange.send(
                request, with: client, deadline: deadline, maximumBodyBytes: maximumBodyBytes, budget: budget)
        } catch let failure as HTTPExchangeFailure {
            throw self.failure(failure)
        }
    }
}

extension HTTPClient {
    /// A client that hands a redirect back instead of following it: a federated server that sends its API to another
    /// host is named as such (and a token is never carried to a host it was not given for).
    package static let unredirected = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
}
