import Foundation
import HTTPTypes
import Hummingbird

/// The bundled OpenAPI document (docs/openapi.json), read once at start: served as it is at `/api/openapi.json`, and
/// the one list of the query parameters each operation takes — a parameter an operation does not list is refused
/// with a 400 that names the ones it takes, so a misspelt `cuont=50` is said rather than silently ignored.
struct APIDescription: Sendable {
    let document: ByteBuffer
    private let operations: [Operation]

    private struct Operation: Sendable {
        /// The path's segments; `{name}` matches any one.
        let segments: [Substring]
        let method: HTTPRequest.Method
        /// Its query parameters, in the document's order.
        let parameters: [String]
    }

    static func bundled() throws -> APIDescription {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw SiteError.missingResources
        }
        return try APIDescription(json: Data(contentsOf: url))
    }

    init(json: Data) throws {
        document = ByteBuffer(bytes: json)
        let root = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
        let shared = (root["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]] ?? [:]
        var operations: [Operation] = []
        for (path, item) in root["paths"] as? [String: [String: Any]] ?? [:] {
            let common = item["parameters"] as? [[String: Any]] ?? []
            for (method, operation) in item {
                guard let operation = operation as? [String: Any], operation["responses"] != nil else { continue }
                let parameters = (common + (operation["parameters"] as? [[String: Any]] ?? [])).map {
                    Self.resolve($0, shared)
                }
                operations.append(
                    Operation(
                        segments: path.split(separator: "/"), method: HTTPRequest.Method(method.uppercased())!,
                        parameters: parameters.filter { $0["in"] as? String == "query" }.compactMap {
                            $0["name"] as? String
                        }))
            }
        }
        self.operations = operations
    }

    /// A parameter given as `{"$ref": "#/components/parameters/Term"}`, as it is written there.
    private static func resolve(_ parameter: [String: Any], _ shared: [String: [String: Any]]) -> [String: Any] {
        guard let reference = parameter["$ref"] as? String else { return parameter }
        return shared[String(reference.split(separator: "/").last ?? "")] ?? [:]
    }

    /// Refuses a query that holds a parameter the operation does not take; an address or a method the document does
    /// not describe is left to the router (a 404, a 405).
    func checkParameters(_ query: QueryString, path: String, method: HTTPRequest.Method) throws(RefusedRequest) {
        let method = method == .head ? .get : method
        let segments = path.split(separator: "/")
        guard
            let operation = operations.first(where: { operation in
                operation.method == method && operation.segments.count == segments.count
                    && zip(segments, operation.segments).allSatisfy { $1.hasPrefix("{") || $0 == $1 }
            })
        else { return }
        guard let unknown = query.names.first(where: { !operation.parameters.contains($0) }) else { return }
        let takes =
            operation.parameters.isEmpty
            ? "it takes none" : "it takes " + operation.parameters.joined(separator: ", ")
        throw RefusedRequest(.badRequest, "This address does not take the parameter “\(unknown)”: \(takes).")
    }
}

/// Refuses, under `/api/`, a query parameter the operation's description does not list (`APIDescription`).
struct APIParameterCheck: RouterMiddleware {
    typealias Context = SiteContext
    let api: APIDescription

    func handle(
        _ request: Request, context: SiteContext, next: (Request, SiteContext) async throws -> Response
    ) async throws -> Response {
        if request.uri.path.hasPrefix("/api/") {
            try api.checkParameters(context.queryString, path: request.uri.path, method: request.method)
        }
        return try await next(request, context)
    }
}
