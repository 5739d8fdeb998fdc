import AppStore
import Foundation
import Posts
import SmashtagApp
import TestSupport
import Testing

/// People, sign-ins, tokens, each person's own Recents and the audit trail, on SQLite and PostgreSQL alike.
struct PeopleTests {
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func people(_ t: StoreFixture) -> People { People(database: t.database) }

    private func search(_ t: StoreFixture, _ term: String, as holder: Holder) async throws {
        _ = try await t.sessions.sessions.fetch(term, from: t.sessions.sources, at: .newest, for: holder)
    }

    @Test(arguments: TestStore.available) func namesAreUniqueWhateverTheirCaseAndRolesChange(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        #expect(try await people(t).admission(signIn: nil, token: nil) == Admission(hasPeople: false))
        let alice = try await people(t).add("Alice", role: .researcher, passwordHash: "hash-a", now: Self.start)
        #expect(alice.name == "Alice" && alice.role == .researcher && alice.created == Self.start)
        await #expect(throws: PeopleError.nameTaken("alice")) {
            try await people(t).add("alice", role: .viewer, passwordHash: "x")
        }
        await #expect(throws: PeopleError.badName("<b>")) {
            try await people(t).add("<b>", role: .viewer, passwordHash: "x")
        }
        try await people(t).setRole(.admin, of: "ALICE")
        #expect(try await people(t).person(named: "alice")?.role == .admin)
        #expect(try await people(t).credentials(of: "alice")?.passwordHash == "hash-a")
        await #expect(throws: PeopleError.noSuchPerson("bob")) { try await people(t).setRole(.admin, of: "bob") }
        #expect(try await people(t).all().map(\.name) == ["Alice"])
        #expect(try await people(t).admission(signIn: nil, token: nil) == Admission(hasPeople: true))
    }

    @Test(arguments: TestStore.available) func aSignInLastsUntilItEndsExpiresOrItsPasswordChanges(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let alice = try await people(t).add("alice", role: .viewer, passwordHash: "h", now: Self.start)
        try await people(t).startSignIn(idHash: "s1", person: alice, now: Self.start, lasting: .seconds(60))
        let admitted = try await people(t).admission(signIn: "s1", token: nil, now: Self.start.addingTimeInterval(59))
        #expect(admitted.person?.name == "alice" && admitted.role == .viewer && admitted.tokenPrefix == nil)
        let expired = try await people(t).admission(signIn: "s1", token: nil, now: Self.start.addingTimeInterval(61))
        #expect(expired.person == nil && expired.hasPeople)
        try await people(t).startSignIn(idHash: "s2", person: alice, now: Self.start, lasting: .seconds(60))
        try await people(t).setRole(.researcher, of: "alice")
        #expect(try await people(t).admission(signIn: "s2", token: nil, now: Self.start).role == .researcher)
        try await people(t).setPasswordHash("new", of: "alice")
        #expect(try await people(t).admission(signIn: "s2", token: nil, now: Self.start).person == nil)
        try await people(t).startSignIn(idHash: "s3", person: alice, now: Self.start, lasting: .seconds(60))
        try await people(t).endSignIn(idHash: "s3")
        #expect(try await people(t).admission(signIn: "s3", token: nil, now: Self.start).person == nil)
    }

    @Test(arguments: TestStore.available) func aTokenActsWithTheLowerRoleUntilRevokedExpiredOrItsPersonRemoved(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        _ = try await people(t).add("alice", role: .researcher, passwordHash: "h")
        await #expect(throws: PeopleError.roleAboveHolder(token: .admin, person: .researcher)) {
            try await people(t).createToken(prefix: "p0", hash: "t0", for: "alice", role: .admin, expires: nil)
        }
        try await people(t).createToken(
            prefix: "p1", hash: "t1", for: "alice", role: .researcher, now: Self.start, expires: nil)
        try await people(t).createToken(
            prefix: "p2", hash: "t2", for: "alice", role: .viewer, now: Self.start,
            expires: Self.start.addingTimeInterval(60))
        #expect(try await people(t).admission(signIn: nil, token: "t1", now: Self.start).role == .researcher)
        try await people(t).setRole(.viewer, of: "alice")
        let lowered = try await people(t).admission(signIn: nil, token: "t1", now: Self.start)
        #expect(lowered.role == .viewer && lowered.tokenPrefix == "p1", "a person's role lowered lowers their tokens'")
        #expect(
            try await people(t).admission(signIn: nil, token: "t2", now: Self.start.addingTimeInterval(61)).person
                == nil)
        try await people(t).tokenUsed(prefix: "p1", at: Self.start.addingTimeInterval(5))
        let listed = try await people(t).tokens()
        #expect(listed.map(\.prefix).sorted() == ["p1", "p2"])
        #expect(listed.first { $0.prefix == "p1" }?.lastUsed == Self.start.addingTimeInterval(5))
        #expect(try await people(t).revokeToken(prefix: "p1"))
        #expect(try await !people(t).revokeToken(prefix: "p1"))
        #expect(try await people(t).admission(signIn: nil, token: "t1", now: Self.start).person == nil)
        try await people(t).remove("alice")
        #expect(try await people(t).tokens().isEmpty, "a removed person's tokens go with them")
    }

    @Test(arguments: TestStore.available) func failedSignInsAreCountedPerKeyWithinTheirWindow(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        for second in 0..<3 {
            try await people(t).recordSignInFailure(
                ["name:alice", "address:1.2.3.4"], keeping: .seconds(900),
                now: Self.start.addingTimeInterval(Double(second)))
        }
        #expect(
            try await people(t).signInFailures(
                ["name:alice"], within: .seconds(900), now: Self.start.addingTimeInterval(10)) == 3)
        #expect(
            try await people(t).signInFailures(["name:bob", "address:1.2.3.4"], within: .seconds(900), now: Self.start)
                == 3)
        #expect(
            try await people(t).signInFailures(
                ["name:alice"], within: .seconds(900), now: Self.start.addingTimeInterval(1000)) == 0)
        try await people(t).clearSignInFailures(["name:alice"])
        #expect(
            try await people(t).signInFailures(
                ["name:alice"], within: .seconds(900), now: Self.start.addingTimeInterval(10)) == 0)
    }

    /// The first person takes over what the owner searched; after that, each person has their own Recents, and no
    /// one's searches push out another's term, nor the counts it holds.
    @Test(arguments: TestStore.available) func eachPersonHasTheirOwnRecentsAndNoOnePushesOutAnothersTerm(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        t.source.enqueue([post(2, "#kept @someone"), post(1, "#kept @someone")])
        try await search(t, "#kept", as: .owner)
        let alice = try await people(t).add("alice", role: .researcher, passwordHash: "h")
        let bob = try await people(t).add("bob", role: .viewer, passwordHash: "h")
        #expect(try await Recents(database: t.database, holder: alice.holder).terms() == ["#kept"], "taken over")
        #expect(try await Recents(database: t.database, holder: bob.holder).terms().isEmpty)
        for number in 0...Recents.limit { try await search(t, "term \(number)", as: bob.holder) }
        let bobs = try await Recents(database: t.database, holder: bob.holder).terms()
        #expect(bobs.count == Recents.limit && bobs.first == "term \(Recents.limit)" && !bobs.contains("term 0"))
        #expect(try await Recents(database: t.database, holder: alice.holder).terms() == ["#kept"])
        #expect(try await t.table("#kept")["Users"] == ["@someone 2"], "alice's term keeps its counts")
        try await search(t, "#kept", as: bob.holder)
        #expect(try await Recents(database: t.database, holder: alice.holder).delete("#kept"))
        #expect(try await t.table("#kept")["Users"] == ["@someone 2"], "bob still holds it")
        #expect(try await Recents(database: t.database, holder: bob.holder).delete("#kept"))
        #expect(
            try await TermPosts(database: t.database).shown("#kept") == nil, "no one holds it: gone with its counts")
    }

    @Test(arguments: TestStore.available) func aTermTrackedByOnePersonStaysWhenTheyLeaveAndGoesWhenUntracked(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let alice = try await people(t).add("alice", role: .researcher, passwordHash: "h")
        let tracked = try await TrackedTerms(database: t.database).track("#collected", TrackingPlan(), by: alice.holder)
        #expect(tracked.trackedBy == alice.holder && tracked.trackedByName == "alice")
        try await people(t).remove("alice")
        #expect(try await TrackedTerms(database: t.database).term("#collected")?.trackedByName == nil)
        #expect(try await TrackedTerms(database: t.database).untrack("#collected"))
        #expect(try await TermPosts(database: t.database).shown("#collected") == nil, "unheld and untracked: gone")
    }

    @Test(arguments: TestStore.available) func theAuditTrailKeepsEveryWriteNewestFirst(store: TestStore) async throws {
        let t = try await store.fixture()
        let trail = AuditTrail(database: t.database)
        for (second, action) in ["sign-in", "track", "export"].enumerated() {
            try await trail.record(
                AuditEntry(
                    at: Self.start.addingTimeInterval(Double(second)), actor: "alice", action: action, detail: "#swift",
                    address: "10.0.0.7"))
        }
        let entries = try await trail.entries(since: Self.start.addingTimeInterval(1))
        #expect(entries.map(\.action) == ["export", "track"])
        #expect(
            entries.first
                == AuditEntry(
                    at: Self.start.addingTimeInterval(2), actor: "alice", action: "export", detail: "#swift",
                    address: "10.0.0.7"))
    }
}
