import AsyncHTTPClient
import Foundation
import HTTPExchange
import Posts
import StubServer
import StubXAPI
import Testing
import Twitter

/// The X API client against a real local server playing recorded-format responses.
struct XAPIClientTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TwitterTests/Fixtures")
    /// A recorded-format v2 page: 7 tweets with hashtags, mentions, media, a retweet, a partial error and a next_token.
    static let page = try! [UInt8](Data(contentsOf: fixtures.appendingPathComponent("v2-search.json")))

    // A minute unless a test is about deadlines: in the full suite CPU-heavy tests share the two cooperative threads
    // with the stub, which can then take seconds to answer; a short deadline would time out and retry into an empty
    // queue.
    private func client(_ port: Int, token: String = "t0ken", deadline: Duration = .seconds(60)) -> XAPIClient {
        var policy = XAPIClient.Policy()
        policy.deadline = deadline
        policy.firstBackoff = .milliseconds(10)
        return XAPIClient(
            configuration: XAPIConfiguration(token: BearerToken(token), baseURL: "http://127.0.0.1:\(port)/"),
            policy: policy)
    }

    @Test func aPageSendsEveryParameterAndDecodesEveryTweet() async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(.init(body: Self.page))
            let query = "#swift @nasa \"a b\" c+d é -is:retweet"
            let page = try await client(port).search(SearchRequest(query: query, count: 50))
            let received = try #require(stub.received.first)
            #expect(received.path == "/2/tweets/search/recent")
            #expect(received.headers["authorization"] == "Bearer t0ken")
            #expect(received.parameters["query"] == query)
            #expect(
                received.rawQuery.contains("query=%23swift%20%40nasa%20%22a%20b%22%20c%2Bd%20%C3%A9%20-is%3Aretweet&"))
            #expect(received.parameters["max_results"] == "50")
            #expect(received.parameters["expansions"]?.split(separator: ",").contains("author_id") == true)
            #expect(received.parameters["expansions"]?.contains("attachments.media_keys,referenced_tweets.id") == true)
            #expect(
                received.parameters["tweet.fields"]?.hasPrefix(
                    "created_at,entities,attachments,author_id,referenced_tweets") == true)
            #expect(received.parameters["user.fields"] == "name,username,profile_image_url")
            #expect(
                received.parameters["media.fields"]
                    == "url,preview_image_url,width,height,type,variants,duration_ms,alt_text")
            #expect(received.parameters["since_id"] == nil && received.parameters["next_token"] == nil)
            #expect(page.posts.count == 7)
            #expect(page.posts.contains { !$0.media.isEmpty })
            #expect(page.posts.filter { !$0.mentions.isEmpty }.count >= 5)
            #expect(page.problems.count == 1 && page.problems[0].contains("Could not find tweet"))
            #expect(
                page.older?.position == .older(than: page.posts.last!.id, token: "b26v89c19zqg8o3fosmashtagfixture0001")
            )
            #expect(page.newer.position == .newer(than: page.posts.first!.id))
        }
    }

    @Test func olderSendsTheNextTokenAndNewerTheNewestIdAsSinceId() async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(.init(body: Self.page), .init(body: Self.page), .init(json: #"{"meta":{"result_count":0}}"#))
            let first = try await client(port).search(SearchRequest(query: "#x"))
            _ = try await client(port).search(try #require(first.older))
            let newer = try await client(port).search(first.newer)
            #expect(stub.received[1].parameters["next_token"] == "b26v89c19zqg8o3fosmashtagfixture0001")
            #expect(stub.received[2].parameters["since_id"] == first.posts.first?.id)
            #expect(newer.posts.isEmpty && newer.newer == first.newer && newer.older == nil)
        }
    }

    @Test func aCountUnderTenAsksForTenShowsTheCountAndPagesOnByUntilId() async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(.init(body: Self.page))
            let page = try await client(port).search(SearchRequest(query: "#x", count: 3))
            #expect(stub.received[0].parameters["max_results"] == "10")
            #expect(page.posts.count == 3)
            #expect(page.older?.position == .older(than: page.posts[2].id, token: nil))
            stub.enqueue(.init(body: Self.page))
            _ = try await client(port).search(try #require(page.older))
            #expect(stub.received[1].parameters["until_id"] == page.posts[2].id)
        }
    }

    @Test func theLastPageHasNoOlder() async throws {
        try await StubXAPI.run { stub, port in
            let last = String(decoding: Self.page, as: UTF8.self).replacingOccurrences(
                of: "\"next_token\"", with: "\"previous_token\"")
            stub.enqueue(.init(json: last))
            let page = try await client(port).search(SearchRequest(query: "#x"))
            #expect(page.older == nil)
        }
    }

    @Test func aRejectedTokenSaysSo() async throws {
        try await expectFailure(
            .init(
                status: 401,
                json: #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#)
        ) { error in
            #expect(error == .tokenRejected)
            #expect(
                error.description
                    == "The X API rejected the bearer token (401 Unauthorized): check SMASHTAG_X_BEARER_TOKEN.")
        }
    }

    @Test func forbiddenSaysWhy() async throws {
        let body =
            #"""
            {"client_id":"1","detail":"When authenticating requests to the Twitter API v2 endpoints, you must use \#
            keys and tokens from a Twitter developer App that is attached to a Project.","title":"Client \#
            Forbidden","reason":"client-not-enrolled","type":"https://api.twitter.com/2/problems/client-forbidden"}
            """#
        try await expectFailure(.init(status: 403, json: body)) { error in
            #expect(error.description.hasPrefix("The X API refused the search (403 Forbidden): When authenticating"))
        }
    }

    @Test func aRateLimitSaysWhenToRetry() async throws {
        let reset = Int(Date().timeIntervalSince1970) + 600
        try await expectFailure(
            .init(
                status: 429, headers: ["x-rate-limit-reset": "\(reset)"],
                json: #"{"title":"Too Many Requests","detail":"Too Many Requests","type":"about:blank","status":429}"#)
        ) { error in
            #expect(error == .rateLimited(retryAt: Date(timeIntervalSince1970: Double(reset))))
            let sentence = error.description
            #expect(
                sentence.contains("try again after \(RetryAdvice.time(Date(timeIntervalSince1970: Double(reset))))"))
            #expect(StubXAPI.waitPhrases(until: reset).contains { sentence.contains($0) }, "\(sentence)")
        }
    }

    @Test func aBadQuerySaysWhatTheAPISaid() async throws {
        let body =
            #"""
            {"errors":[{"parameters":{"query":["(("]},"message":"There were errors processing your request: \#
            Ambiguous use of and as a keyword. (at position 5)"}],"title":"Invalid Request","detail":"One or more \#
            parameters to your request was invalid.","type":"https://api.twitter.com/2/problems/invalid-request"}
            """#
        try await expectFailure(.init(status: 400, json: body)) { error in
            #expect(
                error
                    == .badRequest(
                        detail:
                            """
                            There were errors processing your request: Ambiguous use of and as a keyword. (at \
                            position 5)
                            """
                    ))
        }
    }

    @Test(arguments: [
        ("from:WrongSopranosFacts", "it is a Mastodon name on the configured server"),
        ("#tv OR @alice@example.social", "it is a Mastodon address"),
        ("swift -from:alice.bsky.social", "it is a Bluesky handle"),
    ])
    func aUserXCannotHaveIsRefusedWithoutAskingX(query: String, owner: String) async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(.init(body: Self.page))
            await #expect {
                try await client(port).search(SearchRequest(query: query))
            } throws: { error in
                let sentence = (error as? QueryError)?.description ?? ""
                return sentence.hasPrefix("X names have 1–15 letters, digits or _, so X cannot have")
                    && sentence.contains(owner)
            }
            #expect(stub.received.isEmpty)
        }
    }

    @Test func aServerErrorIsRetriedThenSucceeds() async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(.init(status: 503, json: "{}"), .init(status: 500, json: "{}"), .init(body: Self.page))
            let page = try await client(port).search(SearchRequest(query: "#x"))
            #expect(page.posts.count == 7)
        }
    }

    @Test func aServerThatKeepsFailingFailsAfterThreeAttempts() async throws {
        try await expectFailure(
            .init(status: 503, json: "{}"), .init(status: 503, json: "{}"), .init(status: 503, json: "{}")
        ) { error in
            #expect(error == .serverError(status: 503, attempts: 3))
            #expect(error.description == "The X API failed with status 503 (3 attempts); try again later.")
        }
    }

    /// The stand-in answers after an hour (cut short when it stops): only the deadline can end the search, and the
    /// time limit, some hundred times the three 200 ms attempts, is one a loaded machine does not outrun.
    @Test(.timeLimit(.minutes(1))) func aServerThatHangsTimesOutAtTheDeadline() async throws {
        try await StubXAPI.run { stub, port in
            let hanging = StubXAPI.Reply(body: Self.page, delay: .seconds(3600))
            stub.enqueue(hanging, hanging, hanging)
            await #expect(throws: XAPIError.timedOut(seconds: 0, attempts: 3)) {
                try await client(port, deadline: .milliseconds(200)).search(SearchRequest(query: "#x"))
            }
        }
    }

    @Test func aBodyThatIsNotJSONOrTooBigIsAClearError() async throws {
        try await expectFailure(.init(json: "<html>Bad gateway</html>")) { error in
            #expect(error.description.hasPrefix("The X API sent a response Smashtag cannot read: malformed JSON"))
        }
        try await expectFailure(.init(body: [UInt8](repeating: 0x20, count: 9 << 20))) { error in
            #expect(error == .malformedResponse("the body is larger than 8 MB"))
        }
    }

    @Test func aServerThatIsNotThereIsUnreachable() async throws {
        try await StubServer.refusing { port in
            // The client keeps trying to connect until its deadline.
            await #expect {
                try await client(port, deadline: .seconds(2)).search(SearchRequest(query: "#x"))
            } throws: { error in
                guard case .unreachable(let base, _) = error as? XAPIError else { return false }
                return base == "http://127.0.0.1:\(port)"
            }
        }
    }

    @Test func theTokenNeverShowsInDescriptions() {
        let configuration = XAPIConfiguration(token: BearerToken("s3cret"))
        #expect(!"\(configuration)".contains("s3cret"))
        #expect(!String(reflecting: configuration).contains("s3cret"))
    }

    private func expectFailure(_ replies: StubXAPI.Reply..., check: (XAPIError) -> Void) async throws {
        let error = try await StubXAPI.run { stub, port in
            for reply in replies { stub.enqueue(reply) }
            do {
                _ = try await client(port).search(SearchRequest(query: "#x"))
                return nil as XAPIError?
            } catch let error as XAPIError {
                return error
            }
        }
        check(try #require(error))
    }
}
