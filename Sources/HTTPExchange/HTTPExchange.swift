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

    /// Transport errors in words: a refused connection, an unknown host.
    private static func reason(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") {
            return "the connection was refused"
        }
        if text.contains("NXDOMAIN") || text.contains("lookup") || text.contains("resolve") { return "no such host" }
        return text
    }
}

/// Why an exchange got no answer.
package enum HTTPExchangeFailure: Error, Sendable {
    case tooLarge(megabytes: Int)
    case timedOut(seconds: Int)
    case unreachable(String)
}
