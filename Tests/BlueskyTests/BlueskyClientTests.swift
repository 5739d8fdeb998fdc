import AsyncHTTPClient
import Foundation
import HTTPExchange
import StubBluesky
import StubServer
import Testing

@testable import Bluesky
@testable import Posts

/// The Bluesky client against a real local atproto service that signs in, expires sessions and pages searches as
/// Bluesky does, or fails as services do.
struct BlueskyClientTests {
    // A minute unless a test is about deadlines: in the full suite the stub can be starved for seconds.
    private func client(
        _ port: Int, password: String = StubBluesky.appPassword, sessionFile: String? = nil,
        deadline: Duration = .seconds(60)
    ) -> BlueskyClient {
        var policy = BlueskyClient.Policy()
        policy.deadline = deadline
        let credentials = BlueskyConfiguration.Credentials(
            handle: StubBluesky.handle, appPassword: BearerToken(password))
        return BlueskyClient(
            configuration: BlueskyConfiguration(
                service: "http://127.0.0.1:\(port)", credentials: credentials, sessionFile: sessionFile), policy: policy
        )
    }

    private func seconds(_ page: SearchPage) -> [Int] {
        page.posts.compactMap { Int($0.text.split(separator: " ")[4]) }
    }

    private static func posts(_ range: ClosedRange<Int>) -> [StubBluesky.Post] {
        range.map { StubBluesky.Post(second: $0, tags: $0 % 10 == 0 ? ["other"] : ["swift"]) }
    }

    @Test func newestOlderAndNewerPageWithoutGapOrDuplicate() async throws {
        try await StubBluesky.run { stub, port in
            stub.serve(Self.posts(1...100))
            let client = client(port)
            let first = try await client.search(SearchRequest(query: "#swift", count: 20))
            #expect(seconds(first) == Array((1...100).reversed().filter { $0 % 10 != 0 }.prefix(20)))
            #expect(
                first.posts.allSatisfy {
                    $0.network == .bluesky && $0.url.hasPrefix("https://bsky.app/profile/alice.bsky.social/post/")
                })
            #expect(first.posts[0].mentions.map(\.keyword) == ["#swift"])
            let second = try await client.search(try #require(first.older))
            #expect(seconds(second) == Array((1...100).reversed().filter { $0 % 10 != 0 }.dropFirst(20).prefix(20)))
            #expect(stub.requests.last?.contains("until=") == true && stub.requests.last?.contains("limit=21") == true)
            stub.serve(Self.posts(1...130))
            let newer = try await client.search(first.newer)
            #expect(seconds(newer) == Array((101...130).reversed().filter { $0 % 10 != 0 }.suffix(20)))
            let newest = try await client.search(newer.newer)
            #expect(seconds(newest) == Array((101...130).reversed().filter { $0 % 10 != 0 }.prefix(7)))
            #expect(
                stub.requests.filter { $0.contains("searchPosts") }.allSatisfy {
                    $0.contains("sort=latest") && $0.contains("tag=swift")
                })
        }
    }

    @Test func anOlderPageWithoutTheServicesCursorStartsUntilTheOldestShown() async throws {
        try await StubBluesky.run { stub, port in
            stub.serve(Self.posts(1...50))
            let first = try await client(port).search(SearchRequest(query: "#swift OR #other", count: 10))
            #expect(stub.requests.filter { $0.contains("searchPosts") }.count == 2)
            #expect(seconds(first) == Array((41...50).reversed()))
            let older = try await client(port).search(try #require(first.older))
            #expect(seconds(older) == Array((31...40).reversed()))
            #expect(stub.requests.last?.contains("until=") == true)
        }
    }

    @Test func itSignsInOnceAndKeepsTheRefreshTokenReadableByItsOwnerOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bluesky-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/bluesky-session"
        try await StubBluesky.run { stub, port in
            stub.serve(Self.posts(1...5))
            _ = try await client(port, sessionFile: file).search(SearchRequest(query: "#swift"))
            _ = try await client(port, sessionFile: file).search(SearchRequest(query: "#swift"))
            #expect(
                stub.sessionsCreated == 1 && stub.sessionsRefreshed == 1, "the second client renews the kept session")
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let service = "http://127.0.0.1:\(port)"
            #expect(
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
                    == "\(service)\n\(StubBluesky.handle)\nrefresh-2\n")
            try Data("\(service)\nsomeone.else.test\nrefresh-2\n".utf8).write(to: URL(fileURLWithPath: file))
            _ = try await client(port, sessionFile: file).search(SearchRequest(query: "#swift"))
            #expect(stub.sessionsCreated == 2, "another account's kept session is not reused")
            try Data("https://elsewhere.example\n\(StubBluesky.handle)\nrefresh-3\n".utf8).write(
                to: URL(fileURLWithPath: file))
            _ = try await client(port, sessionFile: file).search(SearchRequest(query: "#swift"))
            #expect(stub.sessionsCreated == 3, "another service's kept session is never sent here")
        }
    }

    @Test func anExpiredSessionIsRefreshedAndARevokedOneSignsInAgain() async throws {
        try await StubBluesky.run { stub, port in
            stub.serve(Self.posts(1...5))
            let client = client(port)
            _ = try await client.search(SearchRequest(query: "#swift"))
            stub.expireAccessTokens()
            #expect(try await client.search(SearchRequest(query: "#swift")).posts.count == 5)
            #expect(stub.sessionsCreated == 1 && stub.sessionsRefreshed == 1)
            stub.expireAccessTokens()
            stub.revokeRefreshTokens()
            #expect(try await client.search(SearchRequest(query: "#swift")).posts.count == 5)
            #expect(stub.sessionsCreated == 2)
        }
    }

    @Test(arguments: [
        (
            StubBluesky.Failure(status: 401, body: #"{"error":"InvalidToken","message":"Bad token"}"#),
            "ended the session and refused a new one (Bad token); try again later."
        ),
        (
            StubBluesky.Failure(status: 403, body: #"{"error":"Forbidden","message":"Search is not available"}"#),
            "refused the search (403 Forbidden): Search is not available; try again later."
        ),
        (
            StubBluesky.Failure(status: 500, body: #"{"error":"InternalServerError"}"#),
            "failed with status 500; try again in a few minutes."
        ),
        (
            StubBluesky.Failure(status: 502, body: "<html>Bad gateway</html>"),
            "failed with status 502; try again in a few minutes."
        ),
        (
            StubBluesky.Failure(status: 400, body: #"{"error":"BadQueryString","message":"unbalanced quotes"}"#),
            "rejected the search: unbalanced quotes."
        ),
        (
            StubBluesky.Failure(status: 200, body: "<!DOCTYPE html><html></html>"),
            "sent a response Smashtag cannot read: it answered app.bsky.feed.searchPosts with a web page, not XRPC."
        ),
    ])
    func failuresAreOneSentenceNamingTheService(failure: StubBluesky.Failure, message: String) async throws {
        try await StubBluesky.run { stub, port in
            stub.fail(with: failure)
            await expect(
                try await client(port).search(SearchRequest(query: "#swift")), "Bluesky (127.0.0.1:\(port)) " + message)
        }
    }

    @Test func aRateLimitSaysWhenToRetry() async throws {
        let reset = Int(Date.now.timeIntervalSince1970) + 600
        try await StubBluesky.run { stub, port in
            stub.fail(
                with: .init(
                    status: 429, headers: ["RateLimit-Reset": "\(reset)", "RateLimit-Remaining": "0"],
                    body: #"{"error":"RateLimitExceeded"}"#))
            await expect(
                try await client(port).search(SearchRequest(query: "#swift")),
                "Bluesky (127.0.0.1:\(port)) rate-limited Smashtag (429 Too Many Requests); try again after ",
                prefix: true)
        }
    }

    /// As Mastodon's: an answer an hour away, a time limit a loaded machine does not outrun.
    @Test(.timeLimit(.minutes(1))) func aServiceThatHangsTimesOutAtTheDeadline() async throws {
        try await StubBluesky.run { stub, port in
            stub.fail(with: .init(status: 200, body: #"{"posts":[]}"#, delay: .seconds(3600)))
            await expect(
                try await client(port, deadline: .seconds(1)).search(SearchRequest(query: "#swift")),
                "Bluesky (127.0.0.1:\(port)) did not answer within 1 second; try again later.")
        }
    }

    @Test func credentialsAreNeededAndAWrongPasswordIsSaidNeverShown() async throws {
        let none = BlueskyClient(configuration: BlueskyConfiguration(credentials: nil))
        await expect(
            try await none.search(SearchRequest(query: "#swift")),
            "Bluesky search needs a signed-in account: set SMASHTAG_BLUESKY_HANDLE and SMASHTAG_BLUESKY_APP_PASSWORD",
            prefix: true)
        try await StubBluesky.run { _, port in
            await expect(
                try await client(port, password: "wrong-s3cret").search(SearchRequest(query: "#swift")),
                """
                Bluesky (127.0.0.1:\(port)) did not accept the handle and app password: check \
                SMASHTAG_BLUESKY_HANDLE and SMASHTAG_BLUESKY_APP_PASSWORD.
                """
            )
        }
        let configuration = BlueskyConfiguration.named(
            environment: ["SMASHTAG_BLUESKY_HANDLE": "@me.test", "SMASHTAG_BLUESKY_APP_PASSWORD": "s3cret"],
            dataDirectory: "/tmp")
        #expect(configuration.credentials?.handle == "me.test" && !"\(configuration)".contains("s3cret"))
        #expect(
            BlueskyConfiguration.configured(environment: ["SMASHTAG_BLUESKY_HANDLE": "me.test"], dataDirectory: nil)
                == nil)
    }

    @Test(arguments: [
        ("@alice@mastodon.social", "@alice@mastodon.social is a Mastodon address, not a Bluesky handle."),
        ("from:nasa", "from:nasa is not a Bluesky handle (they are domain names, like nasa.bsky.social)."),
        ("#swift filter:links", "it has no filter:links."),
        ("from:a.test from:b.test", "it searches one author at a time."),
        ((1...40).map { "(#a\($0) OR #b\($0))" }.joined(separator: " "), "more than 4 alternatives joined by OR."),
    ])
    func queriesBlueskyCannotAnswerSaySo(query: String, message: String) async {
        let client = BlueskyClient(
            configuration: BlueskyConfiguration(credentials: .init(handle: "me.test", appPassword: BearerToken("x"))))
        await expect(
            try await client.search(SearchRequest(query: query)), "Bluesky (bsky.social) cannot search that: " + message
        )
    }

    @Test func aNewerPageThatStopsAtItsPageLimitSaysPostsWereSkipped() async throws {
        try await StubBluesky.run { stub, port in
            stub.serve(Self.posts(1...5))
            var policy = BlueskyClient.Policy()
            policy.mostPages = 1
            let credentials = BlueskyConfiguration.Credentials(
                handle: StubBluesky.handle, appPassword: BearerToken(StubBluesky.appPassword))
            let client = BlueskyClient(
                configuration: BlueskyConfiguration(service: "http://127.0.0.1:\(port)", credentials: credentials),
                policy: policy)
            let first = try await client.search(SearchRequest(query: "#swift", count: 5))
            stub.serve(Self.posts(1...60))
            let newer = try await client.search(first.newer)
            #expect(seconds(newer) == [59, 58, 57, 56, 55] && newer.problems.count == 1)
            #expect(newer.problems.first?.contains("some in between are skipped") == true)
        }
    }

    @Test func usersAndWordsBecomeTheirParameters() throws {
        let searches = try BlueskySearch.searches(
            for: try SearchQuery(parsing: "\"big news\" from:alice.bsky.social -spam OR @bob.test #a"))
        #expect(searches.count == 2)
        let first = Dictionary(searches[0].parameters(limit: 25), uniquingKeysWith: { $1 })
        #expect(
            first["q"] == "\"big news\" -spam from:alice.bsky.social" && first["author"] == "alice.bsky.social"
                && first["limit"] == "25")
        let second = Dictionary(searches[1].parameters(limit: 25), uniquingKeysWith: { $1 })
        #expect(second["q"] == "#a mentions:bob.test" && second["mentions"] == "bob.test" && second["tag"] == "a")
    }

    @Test func aPostsTimeIsReadFromItsRecordKey() {
        let microseconds: UInt64 = 1_735_787_045_123_456
        #expect(
            PostTime.of(uri: "at://did:plc:x/app.bsky.feed.post/" + StubBluesky.tid(microseconds: microseconds))
                == Date(timeIntervalSince1970: 1_735_787_045.123456))
        #expect(StubBluesky.tid(microseconds: microseconds).hasPrefix("3l"), "a TID of 2025 starts as Bluesky's do")
        #expect(PostTime.of(uri: "at://did:plc:x/app.bsky.feed.post/self") == nil)
        #expect(PostTime.of(uri: "at://did:plc:x/app.bsky.feed.post/zzzzzzzzzzzzz") == nil)
    }

    private func expect(
        _ body: @autoclosure () async throws -> SearchPage, _ message: String, prefix: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            _ = try await body()
            Issue.record("no error; expected: \(message)", sourceLocation: sourceLocation)
        } catch {
            let text = "\(error)"
            #expect(prefix ? text.hasPrefix(message) : text == message, "\(text)", sourceLocation: sourceLocation)
            #expect(
                !text.contains(StubBluesky.appPassword) && !text.contains("access-") && !text.contains("refresh-"),
                sourceLocation: sourceLocation)
        }
    }
}
