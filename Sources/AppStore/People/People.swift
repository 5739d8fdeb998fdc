import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The people who may sign in, their browsers' sign-ins and their scripts' tokens. It stores hashes only: the
/// callers (the `Team` module) make the passwords' bcrypt hashes and the secrets' SHA-256 hashes.
public struct People: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// 1 to 64 letters, digits and `. _ - @`, starting with a letter or a digit.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, (1...64).contains(name.count),
            first.properties.isAlphabetic || ("0"..."9").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-@".unicodeScalars.contains(scalar)
        }
    }

    public func add(_ name: String, role: Role, passwordHash: String, now: Date = Date()) async throws -> Person {
        guard Self.isValidName(name) else { throw PeopleError.badName(name) }
        return try await database.store.addPerson(
            name: name, role: role, passwordHash: passwordHash, now: now.millisecondsSince1970)
    }

    /// By name.
    public func all() async throws -> [Person] {
        try await database.store.people()
    }

    public func person(named name: String) async throws -> Person? {
        try await database.store.person(named: name)?.0
    }

    /// The person and their password's hash, for signing in.
    public func credentials(of name: String) async throws -> (person: Person, passwordHash: String)? {
        try await database.store.person(named: name)
    }

    public func remove(_ name: String) async throws {
        guard try await database.store.removePerson(named: name) else { throw PeopleError.noSuchPerson(name) }
    }

    public func setRole(_ role: Role, of name: String) async throws {
        guard try await database.store.setRole(role, of: name) else { throw PeopleError.noSuchPerson(name) }
    }

    public func setPasswordHash(_ hash: String, of name: String) async throws {
        guard try await database.store.setPasswordHash(hash, of: name) else { throw PeopleError.noSuchPerson(name) }
    }

    // MARK: Sign-ins

    public func startSignIn(idHash: String, person: Person, now: Date = Date(), lasting: Duration) async throws {
        try await database.store.startSignIn(
            idHash: idHash, personID: person.id, now: now.millisecondsSince1970,
            expires: now.addingTimeInterval(lasting.seconds).millisecondsSince1970)
    }

    public func endSignIn(idHash: String) async throws {
        try await database.store.endSignIn(idHash: idHash)
    }

    /// Whom a request's sign-in or token names, and whether there are people at all.
    public func admission(signIn: String?, token: String?, now: Date = Date()) async throws -> Admission {
        try await database.store.admission(signIn: signIn, token: token, now: now.millisecondsSince1970)
    }

    /// The most failed sign-ins any of `keys` had within `window` before `now`.
    public func signInFailures(_ keys: [String], within window: Duration, now: Date = Date()) async throws -> Int {
        try await database.store.signInFailures(
            keys, since: now.addingTimeInterval(-window.seconds).millisecondsSince1970)
    }

    public func recordSignInFailure(_ keys: [String], keeping window: Duration, now: Date = Date()) async throws {
        try await database.store.recordSignInFailure(
            keys, at: now.millisecondsSince1970,
            forgetBefore: now.addingTimeInterval(-window.seconds).millisecondsSince1970)
    }

    public func clearSignInFailures(_ keys: [String]) async throws {
        try await database.store.clearSignInFailures(keys)
    }

    // MARK: Tokens

    /// A token for `name`, with a role at most theirs.
    public func createToken(
        prefix: String, hash: String, for name: String, role: Role, now: Date = Date(), expires: Date?
    ) async throws {
        guard let person = try await person(named: name) else { throw PeopleError.noSuchPerson(name) }
        guard role <= person.role else { throw PeopleError.roleAboveHolder(token: role, person: person.role) }
        try await database.store.createToken(
            prefix: prefix, hash: hash, personID: person.id, role: role, now: now.millisecondsSince1970,
            expires: expires?.millisecondsSince1970)
    }

    public func tokens() async throws -> [TokenRecord] {
        try await database.store.tokens()
    }

    /// False if no token starts so.
    public func revokeToken(prefix: String) async throws -> Bool {
        try await database.store.revokeToken(prefix: prefix)
    }

    public func tokenUsed(prefix: String, at time: Date = Date()) async throws {
        try await database.store.tokenUsed(prefix: prefix, at: time.millisecondsSince1970)
    }
}
