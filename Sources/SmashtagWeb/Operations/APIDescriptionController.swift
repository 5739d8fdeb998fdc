import Hummingbird

/// `/api/openapi.json`: the OpenAPI 3.1 document that describes every `/api/…` route, the probes and `/metrics` —
/// the contract the suite's fuzzer (schemathesis) holds the server to. It is docs/openapi.json, bundled as it is
/// committed and sent as read, once (`APIDescription`).
struct APIDescriptionController: Sendable {
    let api: APIDescription

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.apiDescription) { [document = api.document] _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "max-age=300"],
                body: .init(byteBuffer: document))
        }
    }
}
