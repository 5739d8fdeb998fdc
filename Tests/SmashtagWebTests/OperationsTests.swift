import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SmashtagWeb

/// What operators' tools read, through the whole router: the probes, the API's description, the metrics.
@Suite struct OperationsTests {
    @Test func theProbesAnswerJSONWithTheSecurityHeaders() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok && String(buffer: health.body) == #"{"status":"ok"}"#)
            #expect(hasSecurityHeaders(health))
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok && String(buffer: ready.body) == #"{"status":"ready"}"#)
            let head = try await client.execute(uri: "/readyz", method: .head)
            #expect(head.status == .ok)
            let post = try await client.execute(uri: "/healthz", method: .post)
            #expect(post.status == .methodNotAllowed)
            #expect(String(buffer: post.body).hasPrefix(#"{"error":"#), "errors of the probes are JSON")
        }
    }

    @Test func theAPIDescriptionIsTheCommittedDocument() async throws {
        let (app, _) = try await WebFixture.application()
        let committed = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../docs/openapi.json"))
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/api/openapi.json", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(Data(String(buffer: response.body).utf8) == committed)
            let body = Data(String(buffer: response.body).utf8)
            let document = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            #expect(document?["openapi"] as? String == "3.1.0")
        }
    }

    @Test func withoutMetricsTheAddressSaysSo() async throws {
        var arguments = TestArguments(dataDirectory: try await WebFixture.dataDirectory())
        arguments.recordsMetrics = false
        let site = try await Site.open(arguments, logger: WebFixture.quietLogger)
        let app = Application(router: try buildRouter(site), logger: WebFixture.quietLogger)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .notFound)
            #expect(String(buffer: response.body).contains("--no-metrics"))
        }
    }

    /// A route added under `/api/` (or for operators' tools) without its description would escape the fuzzer and be
    /// refused every parameter: each is in the document with its method, and the document describes no other.
    @Test func everyAPIRouteIsDescribedAndNothingElse() throws {
        let committed = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../docs/openapi.json"))
        let document = try JSONSerialization.jsonObject(with: committed) as? [String: Any]
        let paths = document?["paths"] as? [String: [String: Any]] ?? [:]
        let described = Set(
            paths.flatMap { path, item in
                item.keys.filter { $0 != "parameters" }.map { "\($0.uppercased()) \(path)" }
            })
        let operated = [Route.health, .readiness, .metrics]
        let routes = Set(
            (Route.all.filter { $0.pattern.hasPrefix("/api/") } + operated).map { route in
                let path = route.pattern.split(separator: "/").map {
                    $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0)
                }
                return "\(route.method) /" + path.joined(separator: "/")
            })
        #expect(described == routes)
    }
}
