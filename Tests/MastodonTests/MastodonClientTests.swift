import HTTPExchange
import Posts
import StubMastodon
import StubServer
import Testing

@testable import Mastodon

/// The Mastodon client against a real local server that pages as Mastodon does, and fails as servers do.
struct MastodonClientTests {
    // A minute unless a test is about deadlines: in the full suite CPU-heavy tests share the two cooperative threads
    // with the stub, which can then take seconds to answer; a short deadline would time out and retry into an empty
    // queue.
    private func client(_ port: Int, token: String? = nil, deadline: Duration = .seconds(60)) -> MastodonClient {
        var policy = MastodonClient.Policy()
        policy.deadline = deadline
        return MastodonClient(
            configuration: MastodonConfiguration(
                instance: "http://127.0.0.1:\(port)", token: token.map(BearerToken.init)), policy: policy)
    }

    private func ids(_ page: SearchPage) -> [Int] { page.posts.compactMap { Int($0.id) } }

    @Test func newestOlderAndNewerPageWithoutGapOrDuplicate() async throws {
        try await StubMastodon.run { stub, port in
            stub.serve((1...100).map { .init(id: $0, tags: $0 % 10 == 0 ? ["other"] : ["swift"]) })
            let source = client(port)
            let newest = try await source.search(SearchRequest(query: "#swift", count: 50))
            let swiftIDs = (1...100).filter { $0 % 10 != 0 }.reversed().map { $0 }
            #expect(ids(newest) == Array(swiftIDs.prefix(50)))
            #expect(
                newest.posts.allSatisfy { $0.network == .mastodon && $0.url.hasPrefix("https://stub.example/@alice/") })
            #expect(stub.requests.count == 2)  // 40, then the 10 that fill the page
            let older = try await source.search(try #require(newest.older))
            #expect(ids(older) == Array(swiftIDs.dropFirst(50)))
            stub.serve((1...150).map { .init(id: $0, tags: ["swift"]) })
            let newer = try await source.search(SearchRequest(query: "#swift", count: 45).at(.newer(than: "99")))
            #expect(ids(newer) == Array((100...144).reversed()))
            #expect(newer.older == nil)
            let newest2 = try await source.search(newer.newer)
            #expect(ids(newest2) == Array((145...150).reversed()))
        }
    }

    @Test func hashtagListsAndMediaBecomeTimelineParameters() async throws {
        try await StubMastodon.run { stub, port in
            stub.serve([
                .init(id: 1, tags: ["a"], hasMedia: true), .init(id: 2, tags: ["b"], hasMedia: true),
                .init(id: 3, tags: ["a", "c"], hasMedia: true), .init(id: 4, tags: ["b"]),
            ])
            let page = try await client(port).search(SearchRequest(query: "(#a OR #b) -#c filter:media"))
            #expect(ids(page) == [2, 1])
            let request = try #require(stub.requests.first)
            #expect(request.hasPrefix("/api/v1/timelines/tag/a?"))
            #expect(
                request.contains("any%5B%5D=b") && request.contains("none%5B%5D=c")
                    && request.contains("only_media=true"))
            #expect(page.posts.first?.media.first?.aspectRatio == 4.0 / 3.0)
        }
    }

    @Test func aUserIsLookedUpOnceThenTheirStatusesPage() async throws {
        try await StubMastodon.run { stub, port in
            stub.serve([.init(id: 1, author: "alice"), .init(id: 2, author: "bob"), .init(id: 3, author: "alice")])
            let source = client(port)
            let page = try await source.search(SearchRequest(query: "@alice OR from:alice"))
            #expect(ids(page) == [3, 1])
            #expect(page.posts.allSatisfy { $0.author.handle == "alice@stub.example" })
            _ = try await source.search(SearchRequest(query: "from:alice"))
            #expect(stub.requests.filter { $0.hasPrefix("/api/v1/accounts/lookup") }.count == 1)
            await expect(
                try await source.search(SearchRequest(query: "from:nobody")),
                "Mastodon (127.0.0.1:\(port)) knows no account @nobody.")
        }
    }

    /// Issue 52: an account's statuses leave replies out (`exclude_replies`); a hashtag timeline cannot, and says so.
    @Test func onlyAUsersPostsCanLeaveRepliesOut() async throws {
        try await StubMastodon.run { stub, port in
            stub.serve([.init(id: 1, tags: ["swift"], author: "alice")])
            _ = try await client(port).search(SearchRequest(query: "from:alice -filter:replies -filter:retweets"))
            let statuses = try #require(stub.requests.last)
            #expect(statuses.contains("exclude_replies=true") && statuses.contains("exclude_reblogs=true"))
            let sentence = """
                Mastodon (127.0.0.1:\(port)) cannot search that: its timelines cannot pick out replies: only one \
                user's posts can leave them out (from:user -filter:replies).
                """
            await expect(try await client(port).search(SearchRequest(query: "#swift filter:replies")), sentence)
            await expect(try await client(port, token: "t").search(SearchRequest(query: "a -filter:replies")), sentence)
            await expect(
                try await client(port).search(SearchRequest(query: "from:alice conversation:7")),
                """
                Mastodon (127.0.0.1:\(port)) cannot search that: it has no conversation: search (a post's thread \
                shows its conversation).
                """)
        }
    }

    @Test func wordsNeedAToken() async throws {
        try await StubMastodon.run { stub, port in
            stub.serve([.init(id: 1, tags: ["swift"]), .init(id: 2, tags: ["rust"])])
            await expect(
                try await client(port).search(SearchRequest(query: "swift language")),
                """
                Without a token, Mastodon (127.0.0.1:\(port)) searches hashtags and users only — search #tag or \
                @user, or set SMASHTAG_MASTODON_TOKEN to search words.
                """
            )
            #expect(stub.requests.isEmpty)
            let page = try await client(port, token: "t").search(SearchRequest(query: "swift"))
            #expect(ids(page) == [1])
        }
    }

    @Test func aServerThatHidesTagTimelinesSaysSo() async throws {
        try await StubMastodon.run { stub, port in
            stub.hideTagTimelines()
            await expect(
                try await client(port).search(SearchRequest(query: "#swift")),
                """
                Mastodon (127.0.0.1:\(port)) hides hashtag timelines from visitors who are not signed in — try another \
                server or set SMASHTAG_MASTODON_TOKEN.
                """
            )
        }
    }

    @Test(arguments: [
        (
            StubMastodon.Failure(status: 401, body: #"{"error":"The access token is invalid"}"#),
            "rejected the access token (401 Unauthorized): check SMASHTAG_MASTODON_TOKEN."
        ),
        (StubMastodon.Failure(status: 500, body: "{}"), "failed with status 500; try again later."),
        (
            StubMastodon.Failure(status: 404, body: "<html>not here</html>"),
            "does not look like a Mastodon server: /api/v1/timelines/tag/swift is not there (404)."
        ),
        (
            StubMastodon.Failure(status: 200, body: "<!DOCTYPE html><html></html>"),
            "does not look like a Mastodon server: it answered with a web page, not the Mastodon API."
        ),
        (StubMastodon.Failure(status: 200, body: "[{\"id\": 1,,}]"), "sent a response Smashtag cannot read: line 1:"),
        (
            StubMastodon.Failure(status: 200, body: #"{"error":"nope"}"#),
            "does not look like a Mastodon server: its answer to /api/v1/timelines/tag/swift is not a list of statuses."
        ),
        (
            StubMastodon.Failure(status: 403, body: #"{"error":"Your login is currently disabled"}"#),
            "refused the search (403 Forbidden): Your login is currently disabled."
        ),
    ])
    func failuresAreOneSentenceNamingTheServer(failure: StubMastodon.Failure, message: String) async throws {
        try await StubMastodon.run { stub, port in
            stub.fail(with: failure)
            await expect(
                try await client(port, token: "t").search(SearchRequest(query: "#swift")),
                "Mastodon (127.0.0.1:\(port)) " + message, prefix: true)
        }
    }

    @Test func rateLimitedSaysWhenToRetry() async throws {
        try await StubMastodon.run { stub, port in
            stub.fail(
                with: .init(
                    status: 429, headers: ["X-RateLimit-Reset": "2099-01-01T14:05:00.000Z"],
                    body: #"{"error":"Too many requests"}"#))
            await expect(
                try await client(port).search(SearchRequest(query: "#swift")),
                "Mastodon (127.0.0.1:\(port)) rate-limited Smashtag (429 Too Many Requests); try again after "
                    + "14:05:00 UTC",
                prefix: true
            )
        }
    }

    /// The stand-in answers after an hour (cut short when it stops): only the deadline ends the search, within a
    /// time limit that a loaded machine does not outrun.
    @Test(.timeLimit(.minutes(1))) func aSlowServerTimesOutAtTheDeadline() async throws {
        try await StubMastodon.run { stub, port in
            stub.fail(with: .init(status: 200, body: "[]", delay: .seconds(3600)))
            await expect(
                try await client(port, deadline: .seconds(1)).search(SearchRequest(query: "#swift")),
                "Mastodon (127.0.0.1:\(port)) did not answer within 1 second; try again later.")
        }
    }

    @Test func aServerThatIsNotThereIsUnreachable() async throws {
        try await StubServer.refusing { port in
            // The client keeps trying to connect until its deadline.
            await expect(
                try await client(port, deadline: .seconds(2)).search(SearchRequest(query: "#swift")),
                "Mastodon (127.0.0.1:\(port)): the connection was refused;", prefix: true)
        }
    }

    @Test func theTokenNeverShowsAndHostsBecomeBaseURLs() {
        let configuration = MastodonConfiguration(instance: "mastodon.social", token: BearerToken("s3cret"))
        #expect(configuration.baseURL == "https://mastodon.social" && configuration.serverName == "mastodon.social")
        #expect(!"\(configuration)".contains("s3cret"))
        #expect(MastodonConfiguration.configured(environment: [:]) == nil)
        #expect(MastodonConfiguration.named(environment: [:]).baseURL == "https://mastodon.social")
        #expect(
            MastodonConfiguration.configured(environment: ["SMASHTAG_MASTODON_INSTANCE": "http://127.0.0.1:9000/"])?
                .serverName == "127.0.0.1:9000")
    }

    @Test func linkHeadersGiveTheIdsToPageFrom() {
        let link = LinkHeader(
            #"""
            <https://m.example/api/v1/timelines/tag/a?max_id=105>; rel="next", \#
            <https://m.example/api/v1/timelines/tag/a?min_id=110>; rel="prev"
            """#
        )
        #expect(link == LinkHeader(olderID: "105", newerID: "110"))
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
        }
    }
}
