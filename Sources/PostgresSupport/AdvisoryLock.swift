import PostgresNIO

/// The advisory locks Smashtag takes, as (class, object) pairs in a class of its own ("SMTG"), so they cannot meet
/// another application's locks on the same database; and the few ways it takes them.
package struct AdvisoryLock: Sendable {
    let objectID: Int32
    let name: String

    static let classID: Int32 = 0x534D_5447
    /// The app store's locks on posts ("SMPS"), which its SQL functions take with a hash of the post's key as the
    /// object: a class apart, so that no post's hash can meet one of the locks below.
    package static let postClassID: Int32 = 0x534D_5053
    package static let migrations = AdvisoryLock(objectID: 1, name: "migrations")
    // 4 was Recents' pruning, which every page counted took until the posts' own locks made it unneeded (issue 39).
    package static let corpusMigrations = AdvisoryLock(objectID: 5, name: "corpus migrations")
    /// Held while the demo fills an empty corpus, so servers starting together generate it once.
    package static let demoFill = AdvisoryLock(objectID: 6, name: "demo corpus")

    init(objectID: Int32, name: String) {
        (self.objectID, self.name) = (objectID, name)
    }

    /// The one server that runs `role`.
    init(_ role: ElectedRole) {
        switch role {
        case .demoTweeter: self.init(objectID: 2, name: role.rawValue)
        case .liveIndex: self.init(objectID: 3, name: role.rawValue)
        }
    }

    /// Held by the connection's session until `unlock`, or until the connection closes.
    package func lock(on connection: PostgresConnection) async throws {
        try await connection.run("SELECT pg_advisory_lock(\(Self.classID), \(objectID))")
    }

    /// As `lock`, unless another session holds it: then false at once.
    package func tryLock(on connection: PostgresConnection) async throws -> Bool {
        try await connection.value("SELECT pg_try_advisory_lock(\(Self.classID), \(objectID)) AS held", "held") == true
    }

    package func unlock(on connection: PostgresConnection) async throws {
        try await connection.run("SELECT pg_advisory_unlock(\(Self.classID), \(objectID))")
    }
}

extension PostgresConnection {
    /// The rows of `query`, each read by column name.
    package func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await self.query(query, logger: .queries).collect().map { $0.makeRandomAccess() }
    }

    /// One column of the first row of `query`; nil when there is no row.
    package func value<T: PostgresDecodable>(
        _ query: PostgresQuery, _ column: String, as type: T.Type = T.self
    ) async throws -> T? {
        try await rows(query).first.map { try $0[column].decode(T.self) }
    }

    /// `query` for what it does, not for rows.
    package func run(_ query: PostgresQuery) async throws {
        try await self.query(query, logger: .queries)
    }
}
