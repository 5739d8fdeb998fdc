import Foundation
import NIOSSL
import PostgresNIO
import Posts

/// Where a PostgreSQL store is: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`
/// (`postgres://` too), as libpq and every deployment tool spell it. TLS is off by default on a loopback host and
/// preferred elsewhere. The password is never shown: `description` names the server and the database only.
public struct PostgresURL: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    let sslMode: SSLMode

    enum SSLMode: String {
        case disable, prefer, require
    }

    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgresql" || scheme == "postgres"
        else { throw .notPostgres }
        guard let user = components.user, !user.isEmpty else { throw .noUser }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = String(components.path.drop { $0 == "/" })
        database = path.isEmpty ? self.user : (path.removingPercentEncoding ?? path)
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value
        guard let sslMode = mode.map(SSLMode.init(rawValue:)) ?? (Self.isLoopback(host) ? .disable : .prefer) else {
            throw .unknownSSLMode(mode ?? "")
        }
        self.sslMode = sslMode
    }

    public var description: String { "PostgreSQL database “\(database)” at \(host):\(port)" }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The pool's configuration: `connections` at most, each connecting within `connectTimeout`.
    func clientConfiguration(connections: Int) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: clientTLS)
        configuration.options.maximumConnections = connections
        configuration.options.connectTimeout = Self.connectTimeout
        return configuration
    }

    /// One connection's configuration, for the check at start-up that says why the server cannot be reached.
    var connectionConfiguration: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: connectionTLS)
        configuration.options.connectTimeout = .seconds(Int64(Self.connectTimeout.components.seconds))
        return configuration
    }

    static let connectTimeout = Duration.seconds(5)

    private var clientTLS: PostgresClient.Configuration.TLS {
        switch sslMode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    private var connectionTLS: PostgresConnection.Configuration.TLS {
        switch sslMode {
        case .disable: .disable
        case .prefer: (try? .prefer(NIOSSLContext(configuration: .makeClientConfiguration()))) ?? .disable
        case .require: (try? .require(NIOSSLContext(configuration: .makeClientConfiguration()))) ?? .disable
        }
    }
}

/// Why a `--database` value is not a PostgreSQL address, in one sentence.
public enum PostgresURLError: ExplainedError, Equatable {
    case notPostgres
    case noUser
    case unknownSSLMode(String)

    public var description: String {
        switch self {
        case .notPostgres:
            "The database must be a PostgreSQL address, such as postgresql://smashtag@127.0.0.1:5432/smashtag."
        case .noUser: "The database address names no user: write it as postgresql://USER@HOST:PORT/DATABASE."
        case .unknownSSLMode(let mode):
            "The database address asks for sslmode “\(mode)”: use disable, prefer or require."
        }
    }
}
