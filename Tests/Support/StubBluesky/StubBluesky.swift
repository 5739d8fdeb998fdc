import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StubServer
import Synchronization

/// A stand-in atproto service for tests: a real HTTP server on 127.0.0.1 that signs in with one handle and app
/// password (`createSession`, `refreshSession`), expires access tokens on demand, and answers
/// `app.bsky.feed.searchPosts` from a fixed set of posts as Bluesky does (newest first, `tag`, `author`, `since`,
/// `until`, `limit`, `cursor`), in the recorded post-view shape with facets after emoji, CJK and RTL text.
public final class StubBluesky: Sendable {
    public static let handle = "tester.bsky.social"
    public static let appPassword = "abcd-efgh-ijkl-mnop"

    /// A post the stub serves: its time (seconds after a fixed moment), tags and author's handle.
    public struct Post: Sendable {
        public let second: Int
        public let tags: [String]
        public let author: String
        /// The post it answers (its record's `reply.parent`), served or not.
        public let parent: String?
        /// What its view's `replyCount` says, when more than the replies served.
        public let replyCount: Int?
        /// A thread shows it as a `#blockedPost`.
        public let isBlocked: Bool

        public init(
            second: Int, tags: [String] = [], author: String = "alice.bsky.social", parent: String? = nil,
            replyCount: Int? = nil, isBlocked: Bool = false
        ) {
            (self.second, self.tags, self.author) = (second, tags, author)
            (self.parent, self.replyCount, self.isBlocked) = (parent, replyCount, isBlocked)
        }

        /// The post's `at://` URI, its record key a TID of its time.
        public var uri: String {
            let did = "did:plc:\(author.split(separator: ".")[0])"
            return "at://\(did)/app.bsky.feed.post/\(StubBluesky.tid(microseconds: microseconds))"
        }
        var microseconds: UInt64 { UInt64(StubBluesky.epoch + second) * 1_000_000 }
    }

    /// One answer for every search, profile and post look-up: a status, headers, a body and a delay.
    public typealias Failure = StubFailure

    static let epoch = 1_785_000_000

    private struct State {
        var posts: [Post] = []
        var handles: [String: String] = [:]
        var signInOnly: Set<String> = []
        var failure: Failure?
        var accessTokens: Set<String> = []
        var refreshTokens: Set<String> = []
        var expiredTokens: Set<String> = []
        var sessionsCreated = 0
        var sessionsRefreshed = 0
        var requests: [String] = []
    }

    private let state = Mutex(State())

    private init() {}

    /// Path and query of every request received, in order.
    public var requests: [String] { state.withLock { $0.requests } }
    public var sessionsCreated: Int { state.withLock { $0.sessionsCreated } }
    public var sessionsRefreshed: Int { state.withLock { $0.sessionsRefreshed } }

    public func serve(_ posts: [Post]) { state.withLock { $0.posts = posts } }

    /// The accounts `app.bsky.actor.getProfiles` knows (no account needed): DID → handle; each display name is
    /// "Name of" the handle.
    public func serveProfiles(_ handles: [String: String]) { state.withLock { $0.handles = handles } }
    /// These DIDs labelled their profile `!no-unauthenticated`: their profile and post views carry the label as
    /// Bluesky's AppView gives it (bskyr's recorded search has one).
    public func askForSignIn(_ dids: Set<String>) { state.withLock { $0.signInOnly = dids } }

    public func fail(with failure: Failure?) { state.withLock { $0.failure = failure } }

    /// Every access token given so far expires (searches with it answer 400 `ExpiredToken`).
    public func expireAccessTokens() {
        state.withLock {
            $0.expiredTokens.formUnion($0.accessTokens)
            $0.accessTokens = []
        }
    }

    /// Refresh tokens stop working too, so only signing in again helps.
    public func revokeRefreshTokens() { state.withLock { $0.refreshTokens = [] } }

    /// Runs `body` with a stub listening on `http://127.0.0.1:<port>`, and stops it after.
    public static func run<T: Sendable>(_ body: (StubBluesky, Int) async throws -> T) async throws -> T {
        let stub = StubBluesky()
        let router = Router()
        router.get("/xrpc/:method") { request, context in try await stub.answer(request, context) }
        router.post("/xrpc/:method") { request, context in try await stub.answer(request, context) }
        return try await StubServer.run(router) { try await body(stub, $0) }
    }

    private func answer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let method = context.parameters.get("method") ?? ""
        state.withLock { $0.requests.append(request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")) }
        let token = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) }
        switch method {
        case "com.atproto.server.createSession":
            let body = try await request.body.collect(upTo: 1 << 16)
            return createSession(String(buffer: body))
        case "com.atproto.server.refreshSession": return refreshSession(token)
        case "app.bsky.feed.searchPosts": return try await search(token, StubQuery(request.uri.query ?? ""))
        case "app.bsky.actor.getProfiles": return await profiles(StubQuery(request.uri.query ?? "").all("actors"))
        case "app.bsky.feed.getPosts": return await posts(StubQuery(request.uri.query ?? "").all("uris"))
        case "app.bsky.feed.getPostThread": return await thread(StubQuery(request.uri.query ?? ""))
        default: return Self.response(501, #"{"error":"MethodNotImplemented","message":"Method Not Implemented"}"#)
        }
    }

    private func createSession(_ body: String) -> Response {
        let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: String] ?? [:]
        guard object["identifier"] == Self.handle, object["password"] == Self.appPassword else {
            return Self.response(401, #"{"error":"AuthenticationRequired","message":"Invalid identifier or password"}"#)
        }
        return newSession { $0.sessionsCreated += 1 }
    }

    private func refreshSession(_ token: String?) -> Response {
        let known = state.withLock { state in token.map { state.refreshTokens.remove($0) != nil } ?? false }
        guard known else { return Self.response(400, #"{"error":"ExpiredToken","message":"Token has been revoked"}"#) }
        return newSession { $0.sessionsRefreshed += 1 }
    }

    private func newSession(_ count: (inout State) -> Void) -> Response {
        let (access, refresh) = state.withLock { state in
            count(&state)
            let number = state.sessionsCreated + state.sessionsRefreshed
            let tokens = ("access-\(number)", "refresh-\(number)")
            state.accessTokens.insert(tokens.0)
            state.refreshTokens.insert(tokens.1)
            return tokens
        }
        return Self.response(
            200,
            #"""
            {"accessJwt":"\#(access)","refreshJwt":"\#(refresh)","handle":"\#(Self.handle)","did":"did:plc:tester",\#
            "active":true}
            """#
        )
    }

    private func search(_ token: String?, _ query: StubQuery) async throws -> Response {
        let (valid, expired, failure) = state.withLock { state in
            (
                token.map(state.accessTokens.contains) ?? false, token.map(state.expiredTokens.contains) ?? false,
                state.failure
            )
        }
        if expired { return Self.response(400, #"{"error":"ExpiredToken","message":"Token has expired"}"#) }
        guard valid else { return Self.response(401, #"{"error":"AuthMissing","message":"Authentication Required"}"#) }
        if let failure { return await failure.answer() }
        guard query.first("q") != nil else {
            return Self.response(
                400, #"{"error":"InvalidRequest","message":"Error: Params must have the property \"q\""}"#)
        }
        return page(query)
    }

    /// As the public AppView answers: up to 25 actors, the unknown left out.
    private func profiles(_ actors: [String]) async -> Response {
        let (handles, failure, asking) = state.withLock { ($0.handles, $0.failure, $0.signInOnly) }
        if let failure { return await failure.answer() }
        guard actors.count <= 25 else {
            return Self.response(
                400, #"{"error":"InvalidRequest","message":"Error: actors must not have more than 25 elements"}"#)
        }
        let views = actors.compactMap { did in
            handles[did].map {
                #"""
                {"did":"\#(did)","handle":"\#($0)","displayName":"Name \#
                of \#($0)","avatar":"https://cdn.bsky.app/img/avatar/plain/\#(did)/bafkavatar@jpeg",\#
                "followersCount":3,"labels":\#(Self.labels(of: did, asking: asking))}
                """#
            }
        }
        return Self.response(200, #"{"profiles":[\#(views.joined(separator: ","))]}"#)
    }

    /// Newest first; `since` inclusive, `until` exclusive (milliseconds); `cursor` is an offset.
    private func page(_ query: StubQuery) -> Response {
        let tags = query.all("tag").map { $0.lowercased() }
        let author = query.first("author")
        let since = query.first("since").flatMap(Self.microseconds) ?? 0
        let until = query.first("until").flatMap(Self.microseconds) ?? .max
        let matching = state.withLock { $0.posts }
            .filter { post in tags.allSatisfy(post.tags.contains) && (author == nil || post.author == author) }
            .filter { $0.microseconds >= since && $0.microseconds < until }
            .sorted { $0.second > $1.second }
        let limit = min(Int(query.first("limit") ?? "") ?? 25, 100)
        let offset = Int(query.first("cursor") ?? "") ?? 0
        let chosen = matching.dropFirst(offset).prefix(limit)
        let next = offset + chosen.count < matching.count ? #","cursor":"\#(offset + chosen.count)""# : ""
        let asking = state.withLock { $0.signInOnly }
        let views = chosen.map { Self.view($0, asking: asking) }
        return Self.response(200, #"{"posts":[\#(views.joined(separator: ","))]\#(next)}"#)
    }

    /// `getPosts`: the views of the URIs asked for that it serves, in the order asked; the others (deleted, never
    /// there) are left out, as Bluesky leaves them out.
    private func posts(_ uris: [String]) async -> Response {
        if let failure = state.withLock({ $0.failure }) { return await failure.answer() }
        guard uris.count <= 25 else {
            return Self.response(
                400, #"{"error":"InvalidRequest","message":"uris must not have more than 25 elements"}"#)
        }
        let (served, asking) = state.withLock { ($0.posts, $0.signInOnly) }
        let views = uris.compactMap { uri in served.first { $0.uri == uri }.map { Self.view($0, asking: asking) } }
        return Self.response(200, #"{"posts":[\#(views.joined(separator: ","))]}"#)
    }

    /// `getPostThread`: the post as a `#threadViewPost` with its parents up to `parentHeight` and its replies down to
    /// `depth` (oldest first), a parent not served as a `#notFoundPost`, a blocked post as a `#blockedPost`; a post not
    /// served is the lexicon's `NotFound` error.
    private func thread(_ query: StubQuery) async -> Response {
        if let failure = state.withLock({ $0.failure }) { return await failure.answer() }
        let (served, asking) = state.withLock { ($0.posts, $0.signInOnly) }
        let uri = query.first("uri") ?? ""
        guard let post = served.first(where: { $0.uri == uri }) else {
            return Self.response(400, #"{"error":"NotFound","message":"Post not found: \#(uri)"}"#)
        }
        let depth = Int(query.first("depth") ?? "") ?? 6
        let height = Int(query.first("parentHeight") ?? "") ?? 80
        func node(_ post: Post, below: Int, above: Int) -> String {
            if post.isBlocked {
                return #"""
                    {"$type":"app.bsky.feed.defs#blockedPost","uri":"\#(post.uri)","blocked":true,\#
                    "author":{"did":"did:plc:\#(post.author.split(separator: ".")[0])"}}
                    """#
            }
            var members = [
                #""$type":"app.bsky.feed.defs#threadViewPost""#,
                #""post":\#(Self.view(post, asking: asking, replies: served.count { $0.parent == post.uri }))"#,
            ]
            if above > 0, let parent = post.parent {
                members.append(
                    #""parent":"#
                        + (served.first { $0.uri == parent }.map { node($0, below: 0, above: above - 1) }
                            ?? #"{"$type":"app.bsky.feed.defs#notFoundPost","uri":"\#(parent)","notFound":true}"#))
            }
            if below > 0 {
                let replies = served.filter { $0.parent == post.uri }.sorted { $0.second < $1.second }
                members.append(
                    #""replies":["# + replies.map { node($0, below: below - 1, above: 0) }.joined(separator: ",") + "]")
            }
            return "{" + members.joined(separator: ",") + "}"
        }
        return Self.response(200, #"{"thread":\#(node(post, below: depth, above: height))}"#)
    }

    /// A post view whose text puts emoji, CJK and right-to-left words before its tag facets.
    /// A profile's labels: `!no-unauthenticated` by the account itself when it asks for sign-in.
    private static func labels(of did: String, asking: Set<String>) -> String {
        guard asking.contains(did) else { return "[]" }
        return #"""
            [{"src":"\#(did)","uri":"at://\#(did)/app.bsky.actor.profile/self","cid":"bafyprofile",\#
            "val":"!no-unauthenticated","cts":"2024-11-13T02:13:44.288Z"}]
            """#
    }

    /// `replies`: what `replyCount` says (a post's own `replyCount` wins).
    private static func view(_ post: Post, asking: Set<String>, replies: Int = 0) -> String {
        var text = "👩‍💻 東京 مرحبا post \(post.second)"
        var facets: [String] = []
        for tag in post.tags {
            text += " "
            let start = text.utf8.count
            text += "#" + tag
            facets.append(
                #"""
                {"index":{"byteStart":\#(start),"byteEnd":\#(text.utf8.count)},\#
                "features":[{"$type":"app.bsky.richtext.facet#tag","tag":"\#(tag)"}]}
                """#
            )
        }
        let created = Date(timeIntervalSince1970: Double(epoch + post.second)).ISO8601Format()
        let did = "did:plc:\(post.author.split(separator: ".")[0])"
        return
            #"""
            {"uri":"\#(post.uri)","cid":"bafy\#(post.second)",\#
            "author":{"did":"\#(did)","handle":"\#(post.author)","labels":\#(labels(of: did, asking: asking)),\#
            "displayName":"","avatar":"https://cdn.bsky.app/img/avatar/plain/x/y@jpeg"},\#
            "record":{"$type":"app.bsky.feed.post","text":"\#(text)","createdAt":"\#(created)",\#
            "facets":[\#(facets.joined(separator: ","))],"langs":["en"]\#(reply(post))},\#
            "replyCount":\#(post.replyCount ?? replies),"repostCount":0,"likeCount":0,\#
            "quoteCount":0,"indexedAt":"\#(created)","labels":[]}
            """#
    }

    /// A reply's `reply` member: its parent, and (here) the parent as root too, with made-up CIDs.
    private static func reply(_ post: Post) -> String {
        guard let parent = post.parent else { return "" }
        let reference = #"{"uri":"\#(parent)","cid":"bafyparent"}"#
        return #","reply":{"root":\#(reference),"parent":\#(reference)}"#
    }

    private static func microseconds(_ text: String) -> UInt64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { return nil }
        return UInt64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// A TID: microseconds and a clock id, base32-sortable.
    public static func tid(microseconds: UInt64) -> String {
        let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz")
        var value = microseconds << 10
        var characters: [Character] = []
        for _ in 0..<13 {
            characters.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        return String(characters.reversed())
    }

    private static func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Response {
        StubServer.response(status, body, headers: headers)
    }
}
