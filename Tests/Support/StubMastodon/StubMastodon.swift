import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StubServer
import Synchronization

/// A stand-in Mastodon server for tests: a real HTTP server on 127.0.0.1 that pages a fixed set of statuses the way
/// Mastodon does (`limit`, `max_id`, `min_id`, `Link` headers; tag timelines with `any[]`/`all[]`/`none[]`, account
/// look-up and statuses, search with a token), or answers every request with one failure.
public final class StubMastodon: Sendable {
    /// A status the stub serves: its id (ids grow with time), tags and author.
    public struct Status: Sendable {
        public let id: Int
        public let tags: [String]
        public let author: String
        public let hasMedia: Bool
        /// The status it answers (`in_reply_to_id`).
        public let replyingTo: Int?
        /// What `replies_count` says, when more than the statuses served that answer it.
        public let repliesCount: Int?
        /// Where the post was written, for a post that reached this server from another: that server and the post's
        /// id there (its `uri` and `url` are that server's, its author `author@home`). Nil: written here.
        public let origin: Origin?
        /// When it was written, in seconds after the stub's epoch; its id when nil (ids grow with time).
        public let second: Int?
        /// The people it mentions, each `name@host` (a server writes its own people's `acct` without the host).
        public let mentions: [String]

        public init(
            id: Int, tags: [String] = [], author: String = "alice", hasMedia: Bool = false, replyingTo: Int? = nil,
            repliesCount: Int? = nil, origin: Origin? = nil, second: Int? = nil, mentions: [String] = []
        ) {
            (self.id, self.tags, self.author, self.hasMedia) = (id, tags, author, hasMedia)
            (self.replyingTo, self.repliesCount, self.origin, self.second) = (replyingTo, repliesCount, origin, second)
            self.mentions = mentions
        }
    }

    /// A post's own server and its `uri` there (what every server gives it).
    public struct Origin: Sendable {
        public let home: String
        public let uri: String

        public init(home: String, uri: String) {
            (self.home, self.uri) = (home, uri)
        }
    }

    /// The software the stub answers as: Mastodon, GoToSocial (ULID-shaped ids, no `indexable`, statuses under
    /// `/users/…/statuses/…` and `/@…/statuses/…`, tag timelines for signed-in users only) or Akkoma (flake-shaped
    /// ids, `/objects/…` uris, a `pleroma` object, a quote given as the status itself).
    public enum Flavor: Sendable {
        case mastodon
        case goToSocial
        case akkoma
    }

    /// One answer for every request: a status, headers, a body and a delay.
    public typealias Failure = StubFailure

    private struct State {
        var statuses: [Status] = []
        var failure: Failure?
        var hidesTagTimelines = false
        var requests: [String] = []
        var requestTimes: [Date] = []
        var rateLimit: RateLimit?
        var tagHistories: [String: [Day]] = [:]
        var delay: Duration = .zero
    }

    /// A day of a tag's `history`: its midnight (UNIX time), uses and accounts.
    public struct Day: Sendable {
        public let day: Int
        public let uses: Int
        public let accounts: Int

        public init(day: Int, uses: Int, accounts: Int) {
            (self.day, self.uses, self.accounts) = (day, uses, accounts)
        }
    }

    /// The `X-RateLimit-*` headers answers carry: `remaining` goes down with each request.
    public struct RateLimit: Sendable {
        public var limit: Int
        public var remaining: Int
        public var reset: Date

        public init(limit: Int, remaining: Int, reset: Date) {
            (self.limit, self.remaining, self.reset) = (limit, remaining, reset)
        }
    }

    private let state = Mutex(State())
    /// The host its own posts and accounts name (`stub.example`).
    public let domain: String
    public let flavor: Flavor

    private init(domain: String, flavor: Flavor) {
        (self.domain, self.flavor) = (domain, flavor)
    }

    /// Path and query of every request received, in order.
    public var requests: [String] { state.withLock { $0.requests } }
    /// When each request arrived, in order.
    public var requestTimes: [Date] { state.withLock { $0.requestTimes } }
    /// Answers carry `X-RateLimit-*` headers from now on (nil: none).
    public func limitRate(_ limit: RateLimit?) { state.withLock { $0.rateLimit = limit } }

    public func serve(_ statuses: [Status]) { state.withLock { $0.statuses = statuses } }
    public func fail(with failure: Failure?) { state.withLock { $0.failure = failure } }
    public func hideTagTimelines() { state.withLock { $0.hidesTagTimelines = true } }
    /// Every answer waits this long first, as a distant or busy server does.
    public func answerAfter(_ delay: Duration) { state.withLock { $0.delay = delay } }
    /// `GET /api/v1/tags/:name` answers the tag with this history (newest day first, as Mastodon sends it); an
    /// unknown tag is a 404.
    public func serveHistory(of tag: String, _ days: [Day]) { state.withLock { $0.tagHistories[tag] = days } }

    /// Runs `body` with a stub listening on `http://127.0.0.1:<port>`, and stops it after.
    public static func run<T: Sendable>(
        domain: String = "stub.example", flavor: Flavor = .mastodon, _ body: (StubMastodon, Int) async throws -> T
    ) async throws -> T {
        let stub = StubMastodon(domain: domain, flavor: flavor)
        let router = Router()
        router.get("**") { request, _ in try await stub.answer(request) }
        return try await StubServer.run(router) { try await body(stub, $0) }
    }

    private func answer(_ request: Request) async throws -> Response {
        let path = request.uri.path
        let (failure, limit, delay) = state.withLock { state in
            state.requests.append(path + (request.uri.query.map { "?" + $0 } ?? ""))
            state.requestTimes.append(Date())
            if var limit = state.rateLimit {
                limit.remaining = max(limit.remaining - 1, 0)
                state.rateLimit = limit
            }
            return (state.failure, state.rateLimit, state.delay)
        }
        if delay > .zero { try await Task.sleep(for: delay) }
        if let failure { return await failure.answer() }
        var response = route(request, path: path)
        if let limit {
            for (name, value) in [
                ("X-RateLimit-Limit", "\(limit.limit)"), ("X-RateLimit-Remaining", "\(limit.remaining)"),
                ("X-RateLimit-Reset", limit.reset.ISO8601Format()),
            ] {
                response.headers[HTTPField.Name(name)!] = value
            }
        }
        return response
    }

    private func route(_ request: Request, path: String) -> Response {
        let query = StubQuery(request.uri.query ?? "")
        let signedIn = request.headers[.authorization] != nil
        if path.hasPrefix("/api/v1/timelines/tag/") {
            return tagTimeline(String(path.dropFirst(22)), query, signedIn: signedIn)
        }
        if path == "/api/v1/accounts/lookup" { return lookup(query.first("acct") ?? "") }
        if path.hasPrefix("/api/v1/statuses/"), path.hasSuffix("/context") {
            return context(String(path.dropFirst(17).dropLast(8)))
        }
        if path.hasPrefix("/api/v1/statuses/") { return status(String(path.dropFirst(17))) }
        if path.hasPrefix("/api/v1/tags/") { return tag(String(path.dropFirst(13))) }
        if path.hasPrefix("/api/v1/accounts/"), path.hasSuffix("/statuses") {
            // "/api/v1/accounts/id-alice@stub.example/statuses"
            let id = String(path.dropFirst(17).dropLast(9).dropFirst(3))
            let (name, host) = account(id.removingPercentEncoding ?? id)
            return page(query, path: path) { self.isBy($0, name, host) }
        }
        if path == "/api/v2/search" {
            guard signedIn else { return Self.response(401, #"{"error":"The access token is invalid"}"#) }
            let words = (query.first("q") ?? "").lowercased()
            return page(query, path: path, wrap: true) { status in status.tags.contains { words.contains($0) } }
        }
        return Self.response(404, #"{"error":"Record not found"}"#)
    }

    private func tagTimeline(_ tag: String, _ query: StubQuery, signedIn: Bool) -> Response {
        if state.withLock({ $0.hidesTagTimelines }) || flavor == .goToSocial, !signedIn {
            return Self.response(422, #"{"error":"This method requires an authenticated user"}"#)
        }
        let anyOf = [tag.removingPercentEncoding ?? tag] + query.all("any[]")
        let all = query.all("all[]")
        let none = query.all("none[]")
        let onlyMedia = query.first("only_media") == "true"
        return page(query, path: "/api/v1/timelines/tag/" + tag) { status in
            anyOf.contains(where: status.tags.contains) && all.allSatisfy(status.tags.contains)
                && !none.contains(where: status.tags.contains) && (!onlyMedia || status.hasMedia)
        }
    }

    private func tag(_ name: String) -> Response {
        guard let days = state.withLock({ $0.tagHistories[name] }) else {
            return Self.response(404, #"{"error":"Record not found"}"#)
        }
        let history = days.map { #"{"day":"\#($0.day)","uses":"\#($0.uses)","accounts":"\#($0.accounts)"}"# }
        return Self.response(
            200,
            #"{"name":"\#(name)","url":"https://stub/tags/\#(name)","history":[\#(history.joined(separator: ","))]}"#)
    }

    /// A status the stub serves; one it does not (deleted, or never there) is Mastodon's own 404.
    private func status(_ id: String) -> Response {
        guard let status = state.withLock({ $0.statuses.first { $0.id == Self.number(id) } }) else {
            return Self.response(404, #"{"error":"Record not found"}"#)
        }
        return Self.response(200, json(status))
    }

    /// `GET /api/v1/statuses/:id/context`: the ancestors root first, the descendants depth first (each level in the
    /// order of ids), as Mastodon answers it.
    private func context(_ id: String) -> Response {
        let statuses = state.withLock { $0.statuses }
        guard let status = statuses.first(where: { $0.id == Self.number(id) }) else {
            return Self.response(404, #"{"error":"Record not found"}"#)
        }
        var ancestors: [Status] = []
        var parent = status.replyingTo
        while let next = parent, let found = statuses.first(where: { $0.id == next }),
            !ancestors.contains(where: { $0.id == next })
        {
            ancestors.insert(found, at: 0)
            parent = found.replyingTo
        }
        var descendants: [Status] = []
        func below(_ id: Int) {
            for reply in statuses.filter({ $0.replyingTo == id }).sorted(by: { $0.id < $1.id })
            where !descendants.contains(where: { $0.id == reply.id }) && reply.id != status.id {
                descendants.append(reply)
                below(reply.id)
            }
        }
        below(status.id)
        let list = { (statuses: [Status]) in "[" + statuses.map(self.json).joined(separator: ",") + "]" }
        return Self.response(200, #"{"ancestors":\#(list(ancestors)),"descendants":\#(list(descendants))}"#)
    }

    /// `alice` (here) or `alice@host`: known when a status it serves is theirs.
    private func lookup(_ acct: String) -> Response {
        let (name, host) = account(acct)
        guard state.withLock({ $0.statuses.contains { isBy($0, name, host) } }) else {
            return Self.response(404, #"{"error":"Record not found"}"#)
        }
        let shown = host == domain ? name : "\(name)@\(host)"
        return Self.response(200, #"{"id":"id-\#(name)@\#(host)","acct":"\#(shown)"}"#)
    }

    /// An address's user name and server (this one when it names none).
    private func account(_ acct: String) -> (name: String, host: String) {
        let parts = acct.split(separator: "@", maxSplits: 1).map(String.init)
        return (parts.first ?? "", parts.count == 2 ? parts[1] : domain)
    }

    private func isBy(_ status: Status, _ name: String, _ host: String) -> Bool {
        status.author == name && (status.origin?.home ?? domain) == host
    }

    /// Mastodon's paging: newest first; `max_id` older than, `min_id` the ones just newer than, at most `limit`.
    private func page(_ query: StubQuery, path: String, wrap: Bool = false, matching: (Status) -> Bool) -> Response {
        let limit = min(Int(query.first("limit") ?? "") ?? 20, 40)
        let all = state.withLock { $0.statuses }.filter(matching).sorted { $0.id > $1.id }
        var chosen: [Status]
        if let minID = query.first("min_id").flatMap(Self.number) {
            chosen = Array(all.filter { $0.id > minID }.reversed().prefix(limit).reversed())
        } else {
            let maxID = query.first("max_id").flatMap(Self.number) ?? Int.max
            chosen = Array(all.filter { $0.id < maxID }.prefix(limit))
        }
        let body = "[" + chosen.map(json).joined(separator: ",") + "]"
        guard !wrap else { return Self.response(200, #"{"accounts":[],"hashtags":[],"statuses":\#(body)}"#) }
        var links: [String] = []
        if let last = chosen.last { links.append("<http://stub\(path)?max_id=\(localID(last.id))>; rel=\"next\"") }
        if let first = chosen.first { links.append("<http://stub\(path)?min_id=\(localID(first.id))>; rel=\"prev\"") }
        return Self.response(200, body, headers: links.isEmpty ? [:] : ["Link": links.joined(separator: ", ")])
    }

    /// The statuses as a tag timeline answers them: what a test writes to a file to import.
    public static func timeline(_ statuses: [Status]) -> String {
        let stub = StubMastodon(domain: "stub.example", flavor: .mastodon)
        return "[" + statuses.map(stub.json).joined(separator: ",") + "]"
    }

    /// An id as this server's software writes one: digits (Mastodon), 26 characters (GoToSocial's ULIDs), or 18
    /// (Akkoma's flakes); each sorts as the number it stands for.
    public func localID(_ number: Int) -> String {
        switch flavor {
        case .mastodon: String(number)
        case .goToSocial: "01" + Self.padded(number, to: 24)
        case .akkoma: "Ak" + Self.padded(number, to: 16)
        }
    }

    private static func padded(_ number: Int, to width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(number).count)) + String(number)
    }

    /// The number an id of any flavour stands for: its last 16 digits.
    private static func number(_ id: String) -> Int? {
        Int(id.count > 16 ? String(id.suffix(16)) : id)
    }

    /// A post's `uri`, as the software of its own server writes it.
    public func uri(of status: Status) -> String {
        if let origin = status.origin { return origin.uri }
        let id = localID(status.id)
        return flavor == .akkoma
            ? "https://\(domain)/objects/\(id)" : "https://\(domain)/users/\(status.author)/statuses/\(id)"
    }

    private func json(_ status: Status) -> String {
        let home = status.origin?.home ?? domain
        let homeID = status.origin.map { String($0.uri.split(separator: "/").last ?? "") } ?? localID(status.id)
        let tags = status.tags.map {
            #"<a href="https://\#(home)/tags/\#($0)" class="mention hashtag" rel="tag">#<span>\#($0)</span></a>"#
        }
        let people = status.mentions.map { address in
            let (name, host) = account(address)
            return (name, host, host == domain ? name : address)
        }
        let names = people.map { name, host, _ in
            #"<span class="h-card"><a href="https://\#(host)/@\#(name)" class="u-url mention">@<span>\#(name)"#
                + "</span></a></span>"
        }
        let mentionObjects = people.map { name, host, acct in
            #"{"id":"id-\#(name)@\#(host)","username":"\#(name)","acct":"\#(acct)","url":"https://\#(host)/@\#(name)"}"#
        }
        let content = "<p>status \(homeID) " + (tags + names).joined(separator: " ") + "</p>"
        let media =
            status.hasMedia
            ? #"""
            [{"type":"image","url":"https://\#(home)/\#(homeID).png","meta":{"original":{"width":4,"height":3}}}]
            """#
            : "[]"
        let seconds = 1_785_000_000 + (status.second ?? status.id)
        let tagObjects = status.tags.map { #"{"name":"\#($0)"}"# }.joined(separator: ",")
        let acct = status.origin == nil ? status.author : "\(status.author)@\(home)"
        let url =
            flavor == .goToSocial && status.origin == nil
            ? "https://\(home)/@\(status.author)/statuses/\(homeID)" : "https://\(home)/@\(status.author)/\(homeID)"
        let extra =
            switch flavor {
            case .mastodon: #","indexable":true"#
            case .goToSocial: ""
            case .akkoma: #","pleroma":{"is_admin":false,"relationship":{}}"#
            }
        let statusExtra = flavor == .akkoma ? #","pleroma":{"local":\#(status.origin == nil)},"quote":null"# : ""
        return
            #"""
            {"id":"\#(localID(status.id))","uri":"\#(uri(of: status))","created_at":"\#(Self.isoDate(seconds))",\#
            "content":\#(Self.quoted(content)),"url":"\#(url)","account":{"id":"id-\#(status.author)",\#
            "username":"\#(status.author)","acct":"\#(acct)","display_name":"",\#
            "url":"https://\#(home)/@\#(status.author)"\#(extra)},\#
            "mentions":[\#(mentionObjects.joined(separator: ","))],\#
            "tags":[\#(tagObjects)],\#
            "media_attachments":\#(media),"sensitive":false,"spoiler_text":"","reblog":null,\#
            "in_reply_to_id":\#(status.replyingTo.map { "\"\(localID($0))\"" } ?? "null"),\#
            "replies_count":\#(status.repliesCount ?? 0)\#(statusExtra)}
            """#
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func isoDate(_ seconds: Int) -> String {
        Date(timeIntervalSince1970: Double(seconds)).ISO8601Format()
    }

    private static func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Response {
        StubServer.response(status, body, headers: headers)
    }
}
