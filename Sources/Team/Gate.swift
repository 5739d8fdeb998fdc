import AppStore
import Posts
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Who a request is, from its sign-in cookie or its `Authorization: Bearer` token, and how Smashtag runs:
///
/// - no people added, on a loopback address: everyone who can reach it is the owner, as on a laptop;
/// - people added: a person signed in, or with a token; anyone else is a visitor where `--public` lets them read, and
///   a stranger (who may only sign in) otherwise.
///
/// One short store read per request, not remembered: on SQLite it runs on the calling thread (`InlineReaders`), as
/// cheap as asking whether the file changed, which is all a remembered answer saved.
public struct Gate: Sendable {
    private let database: AppDatabase
    /// The server listens on a loopback address only.
    public let isLoopback: Bool
    /// `--public`: visitors who are not signed in may read pages and search the corpus.
    public let isPublic: Bool
    private let lastUses = TokenUses()

    public init(database: AppDatabase, isLoopback: Bool, isPublic: Bool) {
        self.database = database
        (self.isLoopback, self.isPublic) = (isLoopback, isPublic)
    }

    /// The caller; throws `Refusal.notAdmitted` for a token or sign-in that is malformed, unknown, expired or
    /// revoked.
    /// `fromThisComputer`: the request came from this computer (a loopback address, directly or through a trusted
    /// proxy); only then is anyone the owner.
    public func caller(sessionID: String?, bearer: String?, fromThisComputer: Bool = true) async throws -> Caller {
        if let bearer, !Secrets.isTokenShaped(bearer) { throw Refusal.badToken }
        let session = sessionID.flatMap { Secrets.isSessionShaped($0) ? Secrets.hash($0) : nil }
        let admission = try await People(database: database).admission(
            signIn: session, token: bearer.map(Secrets.hash))
        if let person = admission.person, let role = admission.role {
            if let prefix = admission.tokenPrefix { await noteUse(of: prefix) }
            return .person(person, role: role, tokenPrefix: admission.tokenPrefix)
        }
        guard admission.hasPeople else { return isLoopback && fromThisComputer ? .owner : signedOut }
        if bearer != nil { throw Refusal.badToken }
        if sessionID != nil { throw Refusal.signInEnded }
        return signedOut
    }

    /// Anyone not signed in: a visitor where `--public` lets visitors read, a stranger otherwise.
    public var signedOut: Caller { isPublic ? .visitor : .stranger }

    /// A token's last use, written at most once a minute per token: `token list` shows it, and a write per request
    /// would make every script's request a commit.
    private func noteUse(of prefix: String) async {
        guard lastUses.isDue(prefix) else { return }
        try? await People(database: database).tokenUsed(prefix: prefix)
    }
}

/// When each token's last use was written by this server.
private final class TokenUses: Sendable {
    private let written = Mutex<[String: ContinuousClock.Instant]>([:])

    func isDue(_ prefix: String) -> Bool {
        let now = ContinuousClock.now
        return written.withLock { written in
            if let last = written[prefix], now - last < .seconds(60) { return false }
            written[prefix] = now
            return true
        }
    }
}

/// A request Smashtag will not act on, in one sentence, with its HTTP status.
public enum Refusal: ExplainedError, Equatable {
    /// 401: a token that is malformed, unknown, expired or revoked.
    case badToken
    /// 401: a sign-in cookie the store does not know (expired, ended, tampered with).
    case signInEnded
    /// 401: not signed in, where that is needed.
    case signInNeeded
    /// 403: signed in, with too small a role.
    case needs(Access)
    /// 429: too many failed sign-ins.
    case signInsWaiting(retryAfter: Int)
    /// 429: past a budget.
    case overBudget(Budget.Kind, retryAfter: Int)

    public var status: Int {
        switch self {
        case .badToken, .signInEnded, .signInNeeded: 401
        case .needs: 403
        case .signInsWaiting, .overBudget: 429
        }
    }

    /// Seconds to wait, for `Retry-After`.
    public var retryAfter: Int? {
        switch self {
        case .signInsWaiting(let seconds), .overBudget(_, let seconds): seconds
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .badToken: "This token is not valid: it may have expired or been revoked. Ask an admin for a new one."
        case .signInEnded: "Your sign-in has ended. Sign in again."
        case .signInNeeded: "Sign in to use Smashtag here."
        case .needs(let access): "This needs the \(access) role, which you do not have here. An admin can give it."
        case .signInsWaiting(let seconds):
            "Too many failed sign-ins for this name or from this address: try again in \(Self.minutes(seconds))."
        case .overBudget(let kind, let seconds):
            "You have used this hour’s \(kind.plural). Try again in \(Self.minutes(seconds))."
        }
    }

    private static func minutes(_ seconds: Int) -> String {
        let minutes = max(1, (seconds + 59) / 60)
        return minutes == 1 ? "a minute" : "\(minutes) minutes"
    }
}
