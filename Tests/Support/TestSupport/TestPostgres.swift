import Corpus
import Foundation
import Logging
import PostgresNIO
import PostgresSupport

/// The throwaway PostgreSQL cluster `scripts/test` starts (`SMASHTAG_TEST_POSTGRES_URL`): each test gets a database
/// of its own.
public enum TestPostgres {
    /// The cluster's maintenance database, where the tests' databases are created; nil when none was started.
    public static let url = ProcessInfo.processInfo.environment["SMASHTAG_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// A new, empty database in the test cluster; its URL.
    public static func newDatabase() async throws -> String {
        guard let url, let base = URL(string: url) else { throw PostgresUnavailable() }
        let name = "smashtag_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        var configuration = PostgresConnection.Configuration(
            host: base.host ?? "127.0.0.1", port: base.port ?? 5432, username: base.user ?? "postgres",
            password: nil, database: String(base.path.dropFirst()), tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 1, logger: Logger(label: "test"))
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Logger(label: "test"))
        try await connection.close()
        var components = URLComponents(string: url)!
        components.path = "/" + name
        return components.string!
    }
}

/// No test cluster was started.
public struct PostgresUnavailable: Error {
    public init() {}
}

/// The corpora the corpus suites run against: SQLite in memory always, and PostgreSQL when the test cluster runs —
/// a database of its own per test.
public enum TestCorpus: String, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public static var available: [TestCorpus] { TestPostgres.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    public var description: String { rawValue }

    public func open() async throws -> any LiveIndexCorpus {
        switch self {
        case .sqlite: try SQLiteCorpus.inMemory()
        case .postgres:
            try await PostgresCorpus.open(
                in: PostgresPool.connect(
                    to: PostgresURL(try await TestPostgres.newDatabase()), connections: 4, migrations: [],
                    logger: Logger(label: "test")))
        }
    }
}
