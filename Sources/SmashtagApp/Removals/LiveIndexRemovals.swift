import AppStore
import LiveIndex
import Logging
import Posts

/// What the live index removed (a post its author deleted, every post of an account that is gone) taken out of the
/// store too: from every term that counted those posts, their counts down exactly.
public struct LiveIndexRemovals: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// How many kept posts left with them.
    public func apply(_ removals: [LiveRemoval]) async throws -> Int {
        var keys: [PostKey] = []
        for removal in removals {
            switch removal {
            case .post(let uri): keys.append(PostKey(network: .bluesky, id: uri))
            case .account(let did): keys += try await database.storedKeys(ofAccount: did)
            }
        }
        return try await database.removePosts(keys).posts
    }

    /// The same beside a live index that must go on: a failure (the database away) is logged, and a recheck takes
    /// those posts out later.
    public func apply(_ removals: [LiveRemoval], logger: Logger) async {
        do {
            _ = try await apply(removals)
        } catch {
            logger.warning(
                "the live index removed posts the store keeps, which stay counted until a recheck",
                metadata: ["error": "\(ErrorSentence.forLog(error))"])
        }
    }
}
