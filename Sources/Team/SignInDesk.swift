import AppStore
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Signing in and out. A wrong password and an unknown name get the same answer in the same time (a bcrypt check
/// either way); five failures for a name or from an address within fifteen minutes make both wait.
public struct SignInDesk: Sendable {
    public static let failuresAllowed = 5
    public static let failureWindow = Duration.seconds(15 * 60)
    /// How long a sign-in lasts.
    public static let lasting = Duration.seconds(14 * 24 * 3600)

    private let people: People
    private let passwords: Passwords

    public init(database: AppDatabase, passwords: Passwords = Passwords()) {
        people = People(database: database)
        self.passwords = passwords
    }

    public enum Outcome: Sendable, Equatable {
        /// The new sign-in's session id, for its cookie.
        case signedIn(Person, sessionID: String)
        case refused
    }

    /// Throws `Refusal.signInsWaiting` while the name or the address has failed too often.
    public func signIn(name: String, password: String, from address: String) async throws -> Outcome {
        let keys = ["name:" + name.lowercased(), "address:" + address]
        if try await people.signInFailures(keys, within: Self.failureWindow) >= Self.failuresAllowed {
            throw Refusal.signInsWaiting(retryAfter: Int(Self.failureWindow.components.seconds))
        }
        let credentials = try await people.credentials(of: name)
        let matches = try await passwords.verify(password, hash: credentials?.passwordHash)
        guard matches, let person = credentials?.person else {
            try await people.recordSignInFailure(keys, keeping: Self.failureWindow)
            return .refused
        }
        try await people.clearSignInFailures([keys[0]])
        let sessionID = Secrets.sessionID()
        try await people.startSignIn(idHash: Secrets.hash(sessionID), person: person, lasting: Self.lasting)
        return .signedIn(person, sessionID: sessionID)
    }

    public func signOut(sessionID: String) async throws {
        try await people.endSignIn(idHash: Secrets.hash(sessionID))
    }
}
