import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StubServer
import Synchronization

/// A stand-in for the X API: a real HTTP server on 127.0.0.1 (a free port) that answers with the responses a test
/// queued, in order, and records every request it receives.
public final class StubXAPI: Sendable {
    /// One queued answer.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        /// Wait this long before answering (a slow or hanging server).
        public var delay: Duration

        public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8], delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        public init(status: Int = 200, headers: [String: String] = [:], json: String, delay: Duration = .zero) {
            self.init(status: status, headers: headers, body: Array(json.utf8), delay: delay)
        }
    }

    /// A request as the server received it.
    public struct Received: Sendable {
        public let path: String
        /// The raw query string, still percent-encoded.
        public let rawQuery: String
        /// Decoded query parameters.
        public let parameters: [String: String]
        public let headers: [String: String]
    }

    private let state = Mutex<(replies: [Reply], received: [Received], rule: (@Sendable (Received) -> Reply)?)>(
        ([], [], nil))

    private init() {}

    public var received: [Received] { state.withLock { $0.received } }

    /// How a sentence made a moment ago says the wait until a 429's `reset` (seconds since 1970), counted from now:
    /// a loaded machine may make it a minute or more after the reset was set, so the minutes left now, or one more
    /// if a minute ended meanwhile.
    public static func waitPhrases(until reset: Int) -> [String] {
        let minutes = Int(((Double(reset) - Date().timeIntervalSince1970) / 60).rounded(.up))
        return [minutes, minutes + 1].map { $0 <= 1 ? "(in a minute)" : "(in \($0) minutes)" }
    }

    public func enqueue(_ replies: Reply...) {
        state.withLock { $0.replies += replies }
    }

    /// Answers by what is asked, once the queue is empty: a request sent again (a client that gave up on a slow
    /// answer and retried) gets the same answer, so the stand-in never runs dry however slow the machine is.
    public func answer(by rule: @escaping @Sendable (Received) -> Reply) {
        state.withLock { $0.rule = rule }
    }

    /// Runs `body` with a stub listening on `http://127.0.0.1:<port>`, and stops it after.
    public static func run<T: Sendable>(_ body: (StubXAPI, Int) async throws -> T) async throws -> T {
        let stub = StubXAPI()
        return try await StubServer.run(stub.router) { try await body(stub, $0) }
    }

    private var router: Router<BasicRequestContext> {
        let router = Router()
        router.get("**") { request, _ in try await self.answer(request) }
        return router
    }

    private func answer(_ request: Request) async throws -> Response {
        let headers = Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }) { first, _ in first }
        let parameters = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }) {
            first, _ in first
        }
        let received = Received(
            path: request.uri.path, rawQuery: request.uri.query ?? "", parameters: parameters, headers: headers)
        let reply = state.withLock { state in
            state.received.append(received)
            return state.replies.isEmpty ? state.rule?(received) : state.replies.removeFirst()
        }
        guard let reply else { return Response(status: .notFound) }
        // Not `try`: a slow answer cut short by the server stopping must still end as a response, or NIO traps.
        try? await Task.sleep(for: reply.delay)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        for (name, value) in reply.headers { if let name = HTTPField.Name(name) { fields[name] = value } }
        return Response(
            status: .init(code: reply.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
    }
}
