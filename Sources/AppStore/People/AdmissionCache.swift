import Posts
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whom requests' sign-ins and tokens name, remembered while the store is as it was: every page asks, and a Search
/// page repeated must not pay a read for it. On SQLite an answer holds until the next commit of any process (a role
/// lowered or a person removed changes the file, so their next request reads again) and at most a second (sign-ins
/// expire); PostgreSQL, which other servers write, is read on every request — one read.
public final class AdmissionCache: Sendable {
    private struct Key: Hashable {
        let signIn: String?
        let token: String?
    }

    private struct Entry {
        let admission: Admission
        let generation: StoreGeneration
        let read: ContinuousClock.Instant
    }

    private static let longest = Duration.seconds(1)
    private static let most = 1024
    private let database: AppDatabase
    private let entries = Mutex<[Key: Entry]>([:])

    public init(database: AppDatabase) {
        self.database = database
    }

    /// `signIn` and `token`: the SHA-256 hashes of the request's session id and token, when it has them.
    public func admission(signIn: String?, token: String?) async throws -> Admission {
        let key = Key(signIn: signIn, token: token)
        let now = ContinuousClock.now
        guard let generation = try database.store.generation() else {
            return try await People(database: database).admission(signIn: signIn, token: token)
        }
        if let known = entries.withLock({ $0[key] }), known.generation == generation,
            now - known.read < Self.longest
        {
            return known.admission
        }
        let admission = try await People(database: database).admission(signIn: signIn, token: token)
        entries.withLock { entries in
            if entries.count >= Self.most { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(admission: admission, generation: generation, read: now)
        }
        return admission
    }
}
