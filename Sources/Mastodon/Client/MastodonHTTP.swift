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

/// One page of statuses as the server sent it.
struct StatusesAnswer {
    let posts: [Post]
    /// Statuses in the answer, including any that could not be read (they still count towards a full page).
    let statusCount: Int
    let link: LinkHeader
    /// Whether the server sent a `Link` header at all (search answers have none).
    let hasLink: Bool
    let problems: [String]
    /// Each status's ActivityPub `uri` by its id here (and those of the statuses it boosts or quotes).
    let uris: [String: String]
}

/// Requests to one Mastodon server: a deadline each, bounded bodies, and every failure as a `MastodonError`.
struct MastodonHTTP: Sendable {
    let configuration: MastodonConfiguration
    let logger: Logger
    /// What the server's `X-RateLimit-*` headers last said.
    let budget: RateLimitBudget
    private let service: HTTPService

    init(configuration: MastodonConfiguration, client: HTTPClient, policy: MastodonClient.Policy, logger: Logger) {
        (self.configuration, self.logger) = (configuration, logger)
        let budget = RateLimitBudget()
        self.budget = budget
        service = HTTPService(
            client: client, deadline: policy.deadline, maximumBodyBytes: policy.maximumBodyBytes, budget: budget
        ) { [name = configuration.serverName] in MastodonError(server: name, reason: $0.reason()) }
    }

    func error(_ reason: MastodonError.Reason) -> MastodonError {
        MastodonError(server: configuration.serverName, reason: reason)
    }

    func statuses(_ endpoint: Endpoint, cursor: PageWalk.Cursor, limit: Int) async throws -> StatusesAnswer {
        let (headers, body) = try await get(
            endpoint.path + "?" + endpoint.query(cursor: cursor, limit: limit), endpoint: endpoint)
        let value = try json(body)
        guard let statuses = (endpoint.isSearch ? value["statuses"] : value)?.array else {
            throw error(.notMastodon("its answer to \(endpoint.path) is not a list of statuses"))
        }
        var (posts, problems, uris) = ([Post](), [String](), [String: String]())
        for status in statuses {
            StatusDecoder.uris(of: status, into: &uris)
            do throws(MastodonDecodingError) { posts.append(try StatusDecoder.post(from: status)) } catch {
                problems.append("\(configuration.serverName): \(error.description); it is left out.")
            }
        }
        let link = headers.first(name: "link")
        return StatusesAnswer(
            posts: posts, statusCount: statuses.count, link: LinkHeader(link ?? ""), hasLink: link != nil,
            problems: problems, uris: uris)
    }

    /// `GET /api/v1/accounts/lookup?acct=…`: the id of `alice` (on this server) or `alice@host`.
    func accountID(_ address: String) async throws -> String {
        let path = "/api/v1/accounts/lookup?acct=" + URLQuery.encode(address)
        do {
            let (_, body) = try await get(path, endpoint: nil)
            guard let id = try json(body)["id"]?.nonEmptyString else {
                throw error(.notMastodon("its account lookup has no id"))
            }
            return id
        } catch let failure as MastodonError where failure.reason.isNotFound {
            throw error(.noSuchAccount(address))
        }
    }

    func json(_ body: [UInt8]) throws -> JSONValue {
        if body.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "<") {
            throw error(.notMastodon("it answered with a web page, not the Mastodon API"))
        }
        do throws(JSONDocumentError) {
            return try JSONValue.document(body)
        } catch {
            throw self.error(.malformed(error.description))
        }
    }

    func get(_ pathAndQuery: String, endpoint: Endpoint?) async throws -> (HTTPHeaders, [UInt8]) {
        let request = HTTPClientRequest(url: configuration.baseURL + pathAndQuery)
        let (status, headers, body) = try await service.send(request, bearer: configuration.token?.value)
        logger.debug(
            "mastodon",
            metadata: [
                "path": "\(pathAndQuery)", "status": "\(status.code)",
                "remaining": "\(headers.first(name: "x-ratelimit-remaining") ?? "?")",
            ])
        guard status == .ok else { throw failure(status: status, headers: headers, body: body, endpoint: endpoint) }
        return (headers, body)
    }

    /// What a status other than 200 means here.
    private func failure(
        status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8], endpoint: Endpoint?
    ) -> MastodonError {
        let detail = (try? json(body))?["error"]?.nonEmptyString
        let signedIn = configuration.token != nil
        switch status.code {
        case 401 where signedIn: return error(.tokenRejected)
        case 401 where !signedIn, 422 where !signedIn:
            return error(endpoint?.isTagTimeline == true ? .hidesTagTimelines : .needsSignIn)
        case 403: return error(.forbidden(detail ?? "no reason given"))
        case 404 where detail == nil: return error(.notMastodon("\(endpoint?.path ?? "its API") is not there (404)"))
        case 404: return error(.unexpectedStatus(404, detail))
        case 429: return error(.rateLimited(retryAt: RateLimitHeaders.reset(headers)))
        case 300...399: return error(.redirected(headers.first(name: "location").flatMap(WebLink.authority(of:))))
        case 500...599: return error(.serverError(status: Int(status.code)))
        default: return error(.unexpectedStatus(Int(status.code), detail))
        }
    }
}

extension MastodonError.Reason {
    /// A 404 the API itself answered (with its JSON `error`): the record is not there, the server is.
    var isNotFound: Bool {
        switch self {
        case .unexpectedStatus(404, _): true
        default: false
        }
    }
}
