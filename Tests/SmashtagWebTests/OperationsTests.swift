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
}
