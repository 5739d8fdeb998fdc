import AppStore
import Foundation
import Posts
import Testing

@testable import Team

/// Secrets, passwords, periods, budgets; signing in and who a request is, over a real (in-memory SQLite) store.
struct TeamTests {
    /// bcrypt's cheapest cost: the tests check what is hashed, not how slowly.
    private static let passwords = Passwords(cost: 4)

    @Test func tokensAndSessionIDsHaveTheirShapesAndAreStoredOnlyAsHashes() {
        let (token, prefix) = Secrets.token()
        #expect(token.hasPrefix("smashtag_" + prefix + "_") && prefix.count == 8 && Secrets.isTokenShaped(token))
        #expect(!Secrets.isTokenShaped(token + "x") && !Secrets.isTokenShaped("Bearer " + token))
        let session = Secrets.sessionID()
        #expect(Secrets.isSessionShaped(session) && !Secrets.isSessionShaped(session.dropLast()))
        #expect(Secrets.hash(token).count == 64 && Secrets.hash(token) != Secrets.hash(Secrets.token().token))
        #expect(Secrets.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func passwordsAreCheckedAgainstTheirHashAndAnUnknownNameNeverMatches() async throws {
        let hash = try await Self.passwords.hash("correct horse")
        #expect(hash.hasPrefix("$2b$04$") || hash.hasPrefix("$2a$04$") || hash.hasPrefix("$2y$04$"))
        #expect(try await Self.passwords.verify("correct horse", hash: hash))
        #expect(try await !Self.passwords.verify("correct horsf", hash: hash))
        #expect(try await !Self.passwords.verify("correct horse", hash: nil))
        #expect(throws: PasswordError.tooShort) { try Passwords.check("short") }
        #expect(throws: PasswordError.tooLong) { try Passwords.check(String(repeating: "é", count: 37)) }
        let generated = Passwords.generated()
        #expect(generated.count == 23 && generated.split(separator: "-").count == 4)
    }

    @Test func periodsAreWholeNumbersOfMinutesHoursOrDays() throws {
        #expect(try Period.seconds("30m") == 1800 && Period.seconds("24h") == 86_400 && Period.seconds("7d") == 604_800)
        for bad in ["", "7", "7w", "-1d", "0d", "1.5h", "d"] {
            #expect(throws: PeriodError.self, "\(bad)") { try Period.seconds(bad) }
        }
    }

    @Test func aBudgetRefusesPastItsHourWithWhenToTryAgain() throws {
        let budget = Budget(Budget.Allowance(liveSearches: 2, downloads: 1, networks: 20))
        try budget.spend(.liveSearches, by: "person:1")
        try budget.spend(.liveSearches, by: "person:1")
        #expect(throws: Refusal.self) { try budget.spend(.liveSearches, by: "person:1") }
        try budget.spend(.liveSearches, by: "person:2")
        do {
            try budget.spend(.liveSearches, by: "person:1")
        } catch let refusal as Refusal {
            #expect(refusal.status == 429 && (3500...3601).contains(refusal.retryAfter ?? 0))
            #expect(refusal.description.hasPrefix("You have used this hour’s searches of live networks."))
        }
        #expect(throws: Refusal.self, "visitors download nothing") {
            try budget.spend(.downloads, by: "address:1.2.3.4", isVisitor: true)
        }
        try budget.spend(.networks, by: "address:1.2.3.4", isVisitor: true)
        try budget.spend(.networks, by: "address:1.2.3.4", isVisitor: true)
        #expect(throws: Refusal.self, "a tenth of a person's") {
            try budget.spend(.networks, by: "address:1.2.3.4", isVisitor: true)
        }
    }

    @Test func withNoPeopleTheOwnerIsEveryoneOnThisComputerOnly() async throws {
        let database = try AppDatabase.inMemory()
        #expect(
            try await Gate(database: database, isLoopback: true, isPublic: false).caller(sessionID: nil, bearer: nil)
                == .owner)
        #expect(
            try await Gate(database: database, isLoopback: false, isPublic: true).caller(sessionID: nil, bearer: nil)
                == .visitor)
        let stale = Secrets.sessionID()
        #expect(
            try await Gate(database: database, isLoopback: true, isPublic: false).caller(sessionID: stale, bearer: nil)
                == .owner,
            "a cookie left from a team's days changes nothing")
    }

    @Test func signingInGivesANewSessionThatTheGateAdmitsUntilSignedOut() async throws {
        let database = try AppDatabase.inMemory()
        let hash = try await Self.passwords.hash("a password long enough")
        _ = try await People(database: database).add("alice", role: .researcher, passwordHash: hash)
        let desk = SignInDesk(database: database, passwords: Self.passwords)
        let gate = Gate(database: database, isLoopback: true, isPublic: false)
        #expect(try await gate.caller(sessionID: nil, bearer: nil) == .stranger)
        #expect(try await desk.signIn(name: "alice", password: "wrong password", from: "10.0.0.1") == .refused)
        #expect(try await desk.signIn(name: "nobody", password: "a password long enough", from: "10.0.0.1") == .refused)
        guard
            case .signedIn(let person, let session) = try await desk.signIn(
                name: "ALICE", password: "a password long enough", from: "10.0.0.1")
        else {
            Issue.record("not signed in")
            return
        }
        #expect(person.name == "alice")
        let caller = try await gate.caller(sessionID: session, bearer: nil)
        #expect(caller.person?.name == "alice" && caller.role == .researcher && caller.auditName == "alice")
        try await desk.signOut(sessionID: session)
        await #expect(throws: Refusal.signInEnded) { try await gate.caller(sessionID: session, bearer: nil) }
        await #expect(throws: Refusal.badToken) { try await gate.caller(sessionID: nil, bearer: "smashtag_nonsense") }
    }

    @Test func fiveFailuresForANameMakeItWaitWhateverThePassword() async throws {
        let database = try AppDatabase.inMemory()
        let hash = try await Self.passwords.hash("a password long enough")
        _ = try await People(database: database).add("alice", role: .viewer, passwordHash: hash)
        let desk = SignInDesk(database: database, passwords: Self.passwords)
        for attempt in 0..<SignInDesk.failuresAllowed {
            #expect(
                try await desk.signIn(name: "alice", password: "guess \(attempt) wrong", from: "10.0.0.\(attempt)")
                    == .refused)
        }
        await #expect(throws: Refusal.self) {
            try await desk.signIn(name: "alice", password: "a password long enough", from: "10.9.9.9")
        }
    }
}
