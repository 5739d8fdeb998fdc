import GRDB
import Posts
import SQLiteSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// People, sign-ins and tokens in the app's SQLite file.
extension SQLiteStore: PeopleStore {
    func addPerson(name: String, role: Role, passwordHash: String, now: Int64) async throws -> Person {
        try await writer.write { db in
            let first = try Int.fetchOne(db, sql: "SELECT count(*) FROM person") == 0
            do {
                try db.execute(
                    sql: "INSERT INTO person(key, name, role, passwordHash, created) VALUES (?, ?, ?, ?, ?)",
                    arguments: [Person.key(name), name, role.rawValue, passwordHash, now])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw PeopleError.nameTaken(name)
            }
            let id = db.lastInsertedRowID
            if first {
                // The owner's Recents and tracked terms become the first person's: they were that person's work.
                try db.execute(sql: "UPDATE recentHolder SET holderID = ? WHERE holderID = 0", arguments: [id])
                try db.execute(sql: "UPDATE tracked SET trackedBy = ? WHERE trackedBy = 0", arguments: [id])
            }
            return Person(id: id, name: name, role: role, created: Date(millisecondsSince1970: now))
        }
    }

    func people() async throws -> [Person] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, role, created FROM person ORDER BY key").map(Person.init(row:))
        }
    }

    func person(named name: String) async throws -> (Person, passwordHash: String)? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM person WHERE key = ?", arguments: [Person.key(name)]).map {
                (Person(row: $0), $0["passwordHash"])
            }
        }
    }

    func removePerson(named name: String) async throws -> Bool {
        try await writer.write { [orphans] db in
            guard
                let id = try Int64.fetchOne(
                    db, sql: "SELECT id FROM person WHERE key = ?", arguments: [Person.key(name)])
            else { return false }
            for table in ["signIn", "token"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE personID = ?", arguments: [id])
            }
            try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [id])
            let held = try Int64.fetchAll(
                db, sql: "DELETE FROM recentHolder WHERE holderID = ? RETURNING termID", arguments: [id])
            orphans.add(try Self.removeIfUnheld(held, db))
            return true
        }
    }

    func setRole(_ role: Role, of name: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE person SET role = ? WHERE key = ?", arguments: [role.rawValue, Person.key(name)])
            return db.changesCount > 0
        }
    }

    func setPasswordHash(_ hash: String, of name: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE person SET passwordHash = ? WHERE key = ?", arguments: [hash, Person.key(name)])
            guard db.changesCount > 0 else { return false }
            try db.execute(
                sql: "DELETE FROM signIn WHERE personID = (SELECT id FROM person WHERE key = ?)",
                arguments: [Person.key(name)])
            return true
        }
    }

    func startSignIn(idHash: String, personID: Int64, now: Int64, expires: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM signIn WHERE expires <= ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO signIn(idHash, personID, created, expires) VALUES (?, ?, ?, ?)",
                arguments: [idHash, personID, now, expires])
        }
    }

    func endSignIn(idHash: String) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM signIn WHERE idHash = ?", arguments: [idHash]) }
    }

    /// A person found says there are people; only a request no one is found for asks. The statements share no
    /// snapshot: each answer is one some moment of the database gave, and a read transaction's two statements to begin
    /// and end it were a third of the read.
    func admission(signIn: String?, token: String?, now: Int64) async throws -> Admission {
        try await InlineReaders.read(inline, else: writer, isolation: .eachStatement) { db in
            if let signIn,
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT p.id, p.name, p.role, p.created FROM signIn s JOIN person p ON p.id = s.personID
                            WHERE s.idHash = ? AND s.expires > ?
                            """), arguments: [signIn, now])
            {
                let person = Person(row: row)
                return Admission(hasPeople: true, person: person, role: person.role)
            }
            if let token,
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT p.id, p.name, p.role, p.created, t.role AS tokenRole, t.prefix
                            FROM token t JOIN person p ON p.id = t.personID
                            WHERE t.hash = ? AND (t.expires IS NULL OR t.expires > ?)
                            """), arguments: [token, now])
            {
                let person = Person(row: row)
                let tokenRole = Role(rawValue: row["tokenRole"]) ?? .viewer
                return Admission(
                    hasPeople: true, person: person, role: min(person.role, tokenRole), tokenPrefix: row["prefix"])
            }
            let hasPeople = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM person)")) ?? false
            return Admission(hasPeople: hasPeople)
        }
    }

    func signInFailures(_ keys: [String], since: Int64) async throws -> Int {
        try await writer.read { db in
            try keys.map { key in
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM signInFailure WHERE key = ? AND at >= ?", arguments: [key, since])
                    ?? 0
            }.max() ?? 0
        }
    }

    func recordSignInFailure(_ keys: [String], at time: Int64, forgetBefore: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM signInFailure WHERE at < ?", arguments: [forgetBefore])
            for key in keys {
                try db.execute(sql: "INSERT INTO signInFailure(key, at) VALUES (?, ?)", arguments: [key, time])
            }
        }
    }

    func clearSignInFailures(_ keys: [String]) async throws {
        try await writer.write { db in
            for key in keys { try db.execute(sql: "DELETE FROM signInFailure WHERE key = ?", arguments: [key]) }
        }
    }

    func createToken(
        prefix: String, hash: String, personID: Int64, role: Role, now: Int64, expires: Int64?
    ) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO token(prefix, hash, personID, role, created, expires) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [prefix, hash, personID, role.rawValue, now, expires])
        }
    }

    func tokens() async throws -> [TokenRecord] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.prefix, p.name, t.role, t.created, t.expires, t.lastUsed FROM token t
                    JOIN person p ON p.id = t.personID ORDER BY p.key, t.created
                    """
            ).map { row in
                TokenRecord(
                    prefix: row["prefix"], person: row["name"], role: Role(rawValue: row["role"]) ?? .viewer,
                    created: Date(millisecondsSince1970: row["created"]),
                    expires: (row["expires"] as Int64?).map(Date.init(millisecondsSince1970:)),
                    lastUsed: (row["lastUsed"] as Int64?).map(Date.init(millisecondsSince1970:)))
            }
        }
    }

    func revokeToken(prefix: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM token WHERE prefix = ?", arguments: [prefix])
            return db.changesCount > 0
        }
    }

    func tokenUsed(prefix: String, at time: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE token SET lastUsed = ? WHERE prefix = ?", arguments: [time, prefix])
        }
    }
}

extension Person {
    /// A `person` row (`id`, `name`, `role`, `created`).
    fileprivate init(row: Row) {
        self.init(
            id: row["id"], name: row["name"], role: Role(rawValue: row["role"]) ?? .viewer,
            created: Date(millisecondsSince1970: row["created"]))
    }
}
