import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// People, sign-ins and tokens in PostgreSQL: every server behind the proxy reads the same, so a sign-in made on one
/// is accepted by all, and a role lowered or a person removed holds on every server from their next request.
extension PostgresStore: PeopleStore {
    func addPerson(name: String, role: Role, passwordHash: String, now: Int64) async throws -> Person {
        try await transaction { connection in
            // One person added at a time, so only the first takes over the owner's Recents.
            try await connection.run("LOCK TABLE person IN SHARE ROW EXCLUSIVE MODE")
            let first = try await connection.value("SELECT count(*) AS n FROM person", "n", as: Int.self) == 0
            let added = try await connection.rows(
                """
                INSERT INTO person (key, name, role, password_hash, created)
                VALUES (\(Person.key(name)), \(name), \(role.rawValue), \(passwordHash), \(now))
                ON CONFLICT (key) DO NOTHING RETURNING id
                """)
            guard let id = try added.first?["id"].decode(Int64.self) else { throw PeopleError.nameTaken(name) }
            if first {
                try await connection.run("UPDATE recent_holder SET holder_id = \(id) WHERE holder_id = 0")
                try await connection.run("UPDATE tracked SET tracked_by = \(id) WHERE tracked_by = 0")
            }
            return Person(id: id, name: name, role: role, created: Date(millisecondsSince1970: now))
        }
    }

    func people() async throws -> [Person] {
        try await read { connection in
            try await connection.rows("SELECT id, name, role, created FROM person ORDER BY key").map(Person.init(row:))
        }
    }

    func person(named name: String) async throws -> (Person, passwordHash: String)? {
        try await read { connection in
            guard
                let row = try await connection.rows(
                    "SELECT id, name, role, created, password_hash FROM person WHERE key = \(Person.key(name))"
                ).first
            else { return nil }
            return (try Person(row: row), try row["password_hash"].decode(String.self))
        }
    }

    func removePerson(named name: String) async throws -> Bool {
        try await transaction { connection in
            guard
                let id = try await connection.value(
                    "DELETE FROM person WHERE key = \(Person.key(name)) RETURNING id", "id", as: Int64.self)
            else { return false }
            let held = try await connection.rows(
                "DELETE FROM recent_holder WHERE holder_id = \(id) RETURNING term_id"
            ).map { try $0["term_id"].decode(Int64.self) }
            for term in held.sorted() {
                try await connection.run("SELECT id FROM recent WHERE id = \(term) FOR UPDATE")
                try await Self.removeIfUnheld(term, connection)
            }
            return true
        }
    }

    func setRole(_ role: Role, of name: String) async throws -> Bool {
        try await transaction { connection in
            try await !connection.rows(
                "UPDATE person SET role = \(role.rawValue) WHERE key = \(Person.key(name)) RETURNING id"
            ).isEmpty
        }
    }

    func setPasswordHash(_ hash: String, of name: String) async throws -> Bool {
        try await transaction { connection in
            guard
                let id = try await connection.value(
                    "UPDATE person SET password_hash = \(hash) WHERE key = \(Person.key(name)) RETURNING id", "id",
                    as: Int64.self)
            else { return false }
            try await connection.run("DELETE FROM sign_in WHERE person_id = \(id)")
            return true
        }
    }

    func startSignIn(idHash: String, personID: Int64, now: Int64, expires: Int64) async throws {
        try await transaction { connection in
            try await connection.run("DELETE FROM sign_in WHERE expires <= \(now)")
            try await connection.run(
                """
                INSERT INTO sign_in (id_hash, person_id, created, expires)
                VALUES (\(idHash), \(personID), \(now), \(expires))
                """)
        }
    }

    func endSignIn(idHash: String) async throws {
        try await transaction { connection in try await connection.run("DELETE FROM sign_in WHERE id_hash = \(idHash)")
        }
    }

    /// One statement: whether there are people, and the person the sign-in or the token names.
    func admission(signIn: String?, token: String?, now: Int64) async throws -> Admission {
        try await read { connection in
            let rows = try await connection.rows(
                """
                SELECT EXISTS (SELECT 1 FROM person) AS has_people, p.id, p.name, p.role, p.created,
                    w.token_role, w.prefix
                FROM (SELECT 1) AS one LEFT JOIN (
                    SELECT s.person_id, NULL::text AS token_role, NULL::text AS prefix FROM sign_in s
                    WHERE s.id_hash = \(signIn) AND s.expires > \(now)
                    UNION ALL
                    SELECT t.person_id, t.role, t.prefix FROM token t
                    WHERE t.hash = \(token) AND (t.expires IS NULL OR t.expires > \(now))
                    LIMIT 1) AS w ON true
                LEFT JOIN person p ON p.id = w.person_id
                """)
            guard let row = rows.first else { return Admission(hasPeople: false) }
            let hasPeople = try row["has_people"].decode(Bool.self)
            guard try row["id"].decode(Int64?.self) != nil else { return Admission(hasPeople: hasPeople) }
            let person = try Person(row: row)
            let tokenRole = try row["token_role"].decode(String?.self).map { Role(rawValue: $0) ?? .viewer }
            return Admission(
                hasPeople: hasPeople, person: person, role: tokenRole.map { min($0, person.role) } ?? person.role,
                tokenPrefix: try row["prefix"].decode(String?.self))
        }
    }

    func signInFailures(_ keys: [String], since: Int64) async throws -> Int {
        try await read { connection in
            try await connection.value(
                """
                SELECT coalesce(max(n), 0) AS n FROM (
                    SELECT count(*) AS n FROM sign_in_failure WHERE key = ANY(\(keys)) AND at >= \(since) GROUP BY key
                ) AS per_key
                """, "n", as: Int.self) ?? 0
        }
    }

    func recordSignInFailure(_ keys: [String], at time: Int64, forgetBefore: Int64) async throws {
        try await transaction { connection in
            try await connection.run("DELETE FROM sign_in_failure WHERE at < \(forgetBefore)")
            try await connection.run("INSERT INTO sign_in_failure (key, at) SELECT unnest(\(keys)::text[]), \(time)")
        }
    }

    func clearSignInFailures(_ keys: [String]) async throws {
        try await transaction { connection in
            try await connection.run("DELETE FROM sign_in_failure WHERE key = ANY(\(keys))")
        }
    }

    func createToken(
        prefix: String, hash: String, personID: Int64, role: Role, now: Int64, expires: Int64?
    ) async throws {
        try await transaction { connection in
            try await connection.run(
                """
                INSERT INTO token (prefix, hash, person_id, role, created, expires)
                VALUES (\(prefix), \(hash), \(personID), \(role.rawValue), \(now), \(expires))
                """)
        }
    }

    func tokens() async throws -> [TokenRecord] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT t.prefix, p.name, t.role, t.created, t.expires, t.last_used FROM token t
                JOIN person p ON p.id = t.person_id ORDER BY p.key, t.created
                """
            ).map { row in
                TokenRecord(
                    prefix: try row["prefix"].decode(String.self), person: try row["name"].decode(String.self),
                    role: Role(rawValue: try row["role"].decode(String.self)) ?? .viewer,
                    created: Date(millisecondsSince1970: try row["created"].decode(Int64.self)),
                    expires: try row["expires"].decode(Int64?.self).map(Date.init(millisecondsSince1970:)),
                    lastUsed: try row["last_used"].decode(Int64?.self).map(Date.init(millisecondsSince1970:)))
            }
        }
    }

    func revokeToken(prefix: String) async throws -> Bool {
        try await transaction { connection in
            try await !connection.rows("DELETE FROM token WHERE prefix = \(prefix) RETURNING id").isEmpty
        }
    }

    func tokenUsed(prefix: String, at time: Int64) async throws {
        try await transaction { connection in
            try await connection.run("UPDATE token SET last_used = \(time) WHERE prefix = \(prefix)")
        }
    }
}

extension Person {
    /// A row with `id`, `name`, `role` and `created`.
    fileprivate init(row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row["id"].decode(Int64.self), name: try row["name"].decode(String.self),
            role: Role(rawValue: try row["role"].decode(String.self)) ?? .viewer,
            created: Date(millisecondsSince1970: try row["created"].decode(Int64.self)))
    }
}
