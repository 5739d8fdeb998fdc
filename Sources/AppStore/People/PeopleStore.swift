import Posts

/// People, their sign-ins and their tokens as the store keeps them: bcrypt hashes of passwords and SHA-256 hashes of
/// session ids and tokens, never the secrets. Times in milliseconds since 1970.
protocol PeopleStore: Sendable {
    /// Adds the person; the first one added takes over the owner's Recents and tracked terms. Throws
    /// `PeopleError.nameTaken`.
    func addPerson(name: String, role: Role, passwordHash: String, now: Int64) async throws -> Person
    func people() async throws -> [Person]
    /// The person and their password's hash.
    func person(named name: String) async throws -> (Person, passwordHash: String)?
    /// Removes the person with their sign-ins, their tokens and their Recents (terms no one else holds go with their
    /// counts); terms they tracked stay tracked. False if there was no one of that name.
    func removePerson(named name: String) async throws -> Bool
    func setRole(_ role: Role, of name: String) async throws -> Bool
    /// A new password ends every sign-in of theirs.
    func setPasswordHash(_ hash: String, of name: String) async throws -> Bool

    func startSignIn(idHash: String, personID: Int64, now: Int64, expires: Int64) async throws
    func endSignIn(idHash: String) async throws
    /// Whether there are people, and whom the unexpired sign-in or token names (either, or neither): one read.
    func admission(signIn: String?, token: String?, now: Int64) async throws -> Admission
    /// The most failures any of `keys` had since `since`.
    func signInFailures(_ keys: [String], since: Int64) async throws -> Int
    /// Records a failure for each key, and forgets failures older than `forgetBefore`.
    func recordSignInFailure(_ keys: [String], at: Int64, forgetBefore: Int64) async throws
    func clearSignInFailures(_ keys: [String]) async throws

    func createToken(
        prefix: String, hash: String, personID: Int64, role: Role, now: Int64, expires: Int64?)
        async throws
    func tokens() async throws -> [TokenRecord]
    func revokeToken(prefix: String) async throws -> Bool
    func tokenUsed(prefix: String, at: Int64) async throws
}
