import Foundation
import Hummingbird
import Posts

/// A JSON response: a value as `PublicJSON` writes it, or JSON text already written.
struct JSONBody<Value: Encodable>: ResponseGenerator {
    let value: Value
    var status: HTTPResponse.Status = .ok

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    var response: Response {
        get throws {
            Response(
                status: status, headers: [.contentType: Self.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: try PublicJSON.data(value))))
        }
    }

    /// JSON text already written.
    static func response(json: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    /// The value as compact JSON text.
    var json: String {
        get throws { String(decoding: try PublicJSON.data(value), as: UTF8.self) }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try response
    }

    private static var contentType: String { "application/json; charset=utf-8" }
}
