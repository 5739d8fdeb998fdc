import CompressNIO
import HTTPTypes
import Hummingbird

/// gzip for text (HTML, CSS, JS, JSON, SVG) when the client accepts it, with `Vary: Accept-Encoding`. Never the
/// event streams, which must reach the browser event by event, and never a body already encoded (the assets are
/// compressed once at start-up).
struct Compression<Context: RequestContext>: RouterMiddleware {
    /// Below this, gzip's header and the work cost more than they save; above it, the body is not read whole.
    static var sizes: ClosedRange<Int> { 512...(8 << 20) }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard Gzip.isCompressible(response.headers[.contentType]) else { return response }
        response.headers[.vary] = "Accept-Encoding"
        guard request.method != .head, response.headers[.contentEncoding] == nil,
            Gzip.isAccepted(by: request.headers[.acceptEncoding]),
            let length = response.body.contentLength, Self.sizes.contains(length)
        else { return response }
        let body = try Gzip.compress(try await BodyCollector.collect(response.body))
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = String(body.readableBytes)
        // The compressed bytes are another representation: a strong validator must not claim they are the same.
        if let eTag = response.headers[.eTag], !eTag.hasPrefix("W/") { response.headers[.eTag] = "W/" + eTag }
        response.body = .init(byteBuffer: body)
        return response
    }
}

/// gzip: which responses it suits, whether a client takes it, and the compression itself.
enum Gzip {
    private static let compressibleTypes = [
        "text/html", "text/css", "text/javascript", "application/javascript", "application/json",
        "application/manifest+json", "image/svg+xml", "text/plain", "application/rss+xml",
    ]

    static func isCompressible(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingSpaces.lowercased() else { return false }
        return compressibleTypes.contains(type)
    }

    /// Whether `Accept-Encoding` names gzip (or `*`) with a weight above zero.
    static func isAccepted(by acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        return acceptEncoding.split(separator: ",").contains { coding in
            let parts = coding.split(separator: ";").map(\.trimmingSpaces)
            guard let name = parts.first?.lowercased(), name == "gzip" || name == "*" else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
    }

    static func compress(_ buffer: ByteBuffer) throws -> ByteBuffer {
        var input = buffer
        return try input.compress(with: .gzip(configuration: .init(compressionLevel: .compressionLevel6)))
    }
}

/// Reads a response body whole (it is known to be small: its length is given).
private final class BodyCollector: ResponseBodyWriter {
    private var buffer = ByteBuffer()

    static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let collector = BodyCollector()
        try await body.write(collector)
        return collector.buffer
    }

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension StringProtocol {
    /// Without the spaces and tabs around it (header lists allow them around commas and semicolons).
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
