import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What every stand-in service in the tests shares: a real HTTP server on a free port of 127.0.0.1 for the length of
/// a test, query strings read as services read them, and answers with a status, headers and a body.
public enum StubServer {
    /// Serves `router` while `body` runs with the port, then stops, whether `body` returned or threw.
    public static func run<T: Sendable>(
        _ router: Router<BasicRequestContext>, _ body: (Int) async throws -> T
    ) async throws -> T {
        try await serve(
            { running in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: running)
            }, body)
    }

    /// Runs the application `make` builds (on 127.0.0.1, any port, calling the function it is given once it
    /// listens) while `body` runs with the port, then stops it, whether `body` returned or threw.
    ///
    /// The stand-in's tasks run on threads of their own (`StubThreads`), not Swift's cooperative pool: tests run in
    /// parallel, and some keep both of its threads busy for seconds (decoding a file, generating a corpus), while the
    /// `smashtag` process a test started waits for the stand-in's answer with a deadline of its own.
    public static func serve<T: Sendable, App: ApplicationProtocol>(
        _ make: (@escaping @Sendable (any Channel) async -> Void) -> App, _ body: (Int) async throws -> T
    ) async throws -> T {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = make { continuation.yield($0.localAddress?.port ?? 0) }
        let server = Task(executorPreference: StubThreads.shared) { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        let result: Result<T, any Error>
        do { result = .success(try await body(port)) } catch { result = .failure(error) }
        server.cancel()
        _ = await server.result
        return try result.get()
    }

    /// JSON (or HTML, for a body that starts like a page) with these headers.
    public static func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = body.hasPrefix("<") ? "text/html" : "application/json; charset=utf-8"
        for (name, value) in headers { if let field = HTTPField.Name(name) { fields[field] = value } }
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// An answer a stub gives to every request while a test wants a failure: a status, headers, a body and a delay.
public struct StubFailure: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: String
    public var delay: Duration

    public init(status: Int, headers: [String: String] = [:], body: String = "", delay: Duration = .zero) {
        (self.status, self.headers, self.body, self.delay) = (status, headers, body, delay)
    }

    /// After the delay. Not `try`: a slow answer cut short by the server stopping must still end as a response, or
    /// NIO traps.
    public func answer() async -> Response {
        try? await Task.sleep(for: delay)
        return StubServer.response(status, body, headers: headers)
    }
}

/// A query string's parameters, decoded, repeated names kept (`any[]=a&any[]=b`, `tag=a&tag=b`).
public struct StubQuery: Sendable {
    public let pairs: [(String, String)]

    public init(_ text: String) {
        pairs = text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).removingPercentEncoding ?? String($0)
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    public func first(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }
    public func all(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }
}

/// Threads for the stand-ins' tasks: a concurrent Dispatch queue (a task's own jobs still run one at a time), apart
/// from the cooperative pool that the tests' own work shares.
final class StubThreads: TaskExecutor {
    static let shared = StubThreads()
    private let queue = DispatchQueue(label: "stub-servers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension StubServer {
    /// Runs `body` with a port of 127.0.0.1 where nothing answers: a socket bound to it that does not listen, so a
    /// connection is refused, held until `body` returns. A port freed by a stand-in that stopped would not do: a test
    /// running beside it could start a server there, which then answers.
    public static func refusing<T: Sendable>(_ body: (Int) async throws -> T) async throws -> T {
        #if os(Linux)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw RefusingPortError() }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw RefusingPortError() }
        return try await body(Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// No socket could be bound for a refusing port.
public struct RefusingPortError: Error {}
