import Foundation
import StubXAPI
import Testing

/// `smashtag search --source x` against a local stand-in for the X API.
struct XSourceCommandTests {
    static let page = try! [UInt8](Data(contentsOf: URL(fileURLWithPath: SmashtagRun.fixture("v2-search.json"))))

    private func search(port: Int, directory: String, _ arguments: String...) async throws -> SmashtagRun {
        let environment = ["SMASHTAG_X_API_BASE": "http://127.0.0.1:\(port)", "SMASHTAG_X_BEARER_TOKEN": "t"]
        return try await SmashtagRun.run(
            ["search", "#x", "--source", "x", "--data-dir", directory] + arguments, environment: environment)
    }

    @Test func printsEveryTweetOfThePageThenPagesWithNextTokenAndSinceId() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubXAPI.run { stub, port in
            // The first page and the older one are the recorded page, the newer ones empty.
            stub.answer { request in
                request.parameters["since_id"] == nil
                    ? .init(body: Self.page) : .init(json: #"{"meta":{"result_count":0}}"#)
            }
            let first = try await search(port: port, directory: directory, "--format", "json")
            #expect(first.status == 0, "\(first.stderr)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
            let posts = try #require(document["tweets"] as? [[String: Any]])
            #expect(posts.count == 7)
            #expect(posts.contains { !($0["media"] as? [Any] ?? []).isEmpty })
            #expect(posts.contains { !($0["mentions"] as? [Any] ?? []).isEmpty })
            #expect(first.stderr.contains("smashtag: note: the response reports 1 partial error(s)"))
            _ = try await search(port: port, directory: directory, "--older", "--format", "json")
            _ = try await search(port: port, directory: directory, "--newer", "--format", "json")
            #expect(stub.received.contains { $0.parameters["next_token"] == "b26v89c19zqg8o3fosmashtagfixture0001" })
            #expect(stub.received.last?.parameters["since_id"] == posts.first?["id"] as? String)
            #expect(stub.received.allSatisfy { $0.headers["authorization"] == "Bearer t" })
        }
    }

    @Test func aRateLimitExitsNonZeroSayingWhenToRetry() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubXAPI.run { stub, port in
            let reset = Int(Date().timeIntervalSince1970) + 300
            stub.answer { _ in
                .init(status: 429, headers: ["x-rate-limit-reset": "\(reset)"], json: #"{"title":"Too Many Requests"}"#)
            }
            let run = try await search(port: port, directory: directory)
            #expect(run.status != 0)
            #expect(
                run.stderr.hasPrefix(
                    "smashtag: The X API rate limit is used up (429 Too Many Requests); try again after "))
            #expect(StubXAPI.waitPhrases(until: reset).contains { run.stderr.hasSuffix($0 + ".\n") })
        }
    }

    @Test func aRejectedTokenIsSaid() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try await StubXAPI.run { stub, port in
            stub.answer { _ in
                .init(status: 401, json: #"{"title":"Unauthorized","status":401,"detail":"Unauthorized"}"#)
            }
            let run = try await search(port: port, directory: directory)
            #expect(run.status != 0)
            #expect(
                run.stderr
                    == """
                    smashtag: The X API rejected the bearer token (401 Unauthorized): check \
                    SMASHTAG_X_BEARER_TOKEN.\n
                    """
            )
        }
    }

    @Test func withoutATokenTheXSourceSaysHowToConfigureOne() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let run = try await SmashtagRun.run(
            ["search", "#x", "--source", "x", "--data-dir", directory], environment: ["SMASHTAG_X_BEARER_TOKEN": ""])
        #expect(run.status != 0)
        #expect(
            run.stderr
                == """
                smashtag: no X API bearer token is configured: set SMASHTAG_X_BEARER_TOKEN, or write it \
                to \(directory)/x-bearer-token.\n
                """
        )
    }

    @Test func aTokenFileInTheDataDirectoryMakesXTheDefaultSource() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        try "file-token\n".write(toFile: directory + "/x-bearer-token", atomically: true, encoding: .utf8)
        try await StubXAPI.run { stub, port in
            stub.answer { _ in .init(body: Self.page) }
            let run = try await SmashtagRun.run(
                ["search", "#x", "--data-dir", directory],
                environment: ["SMASHTAG_X_API_BASE": "http://127.0.0.1:\(port)", "SMASHTAG_X_BEARER_TOKEN": ""])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(stub.received.first?.headers["authorization"] == "Bearer file-token")
        }
    }
}
