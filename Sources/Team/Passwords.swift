import HummingbirdBcrypt
import NIOPosix
import Posts

/// Passwords hashed and checked with bcrypt, on NIO's thread pool: a hash takes a quarter of a second of a core at the
/// default cost, which would hold a cooperative thread, and every request behind it, that long.
public struct Passwords: Sendable {
    /// bcrypt reads at most 72 bytes; a longer password would be cut without a word.
    public static let longest = 72
    public static let shortest = 10

    /// bcrypt's cost: each step doubles the time. Tests lower it.
    let cost: UInt8

    public init(cost: UInt8 = 12) {
        self.cost = cost
    }

    public func hash(_ password: String) async throws -> String {
        try Self.check(password)
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` is the one hashed; with no hash (an unknown name), one is checked all the same, so that an
    /// unknown name takes as long as a wrong password.
    public func verify(_ password: String, hash: String?) async throws -> Bool {
        let stored = hash ?? decoy
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: stored) }
        return matches && hash != nil
    }

    /// A hash of nothing anyone can type, at this cost.
    private var decoy: String { Self.decoys[Int(cost)] ?? Bcrypt.hash("\u{0}", cost: cost) }
    private static let decoys: [Int: String] = [12: Bcrypt.hash("\u{0}", cost: 12), 4: Bcrypt.hash("\u{0}", cost: 4)]

    /// A password people can be given: 20 letters and digits in groups of five (about 100 bits).
    public static func generated() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var random = SystemRandomNumberGenerator()
        let letters = (0..<20).map { _ in alphabet[Int(random.next(upperBound: UInt32(alphabet.count)))] }
        return stride(from: 0, to: 20, by: 5).map { String(letters[$0..<$0 + 5]) }.joined(separator: "-")
    }

    /// Long enough to resist guessing, short enough for bcrypt to read whole.
    public static func check(_ password: String) throws {
        guard password.count >= shortest else { throw PasswordError.tooShort }
        guard password.utf8.count <= longest else { throw PasswordError.tooLong }
    }
}

/// Why a password was refused, in one sentence.
public enum PasswordError: ExplainedError, Equatable {
    case tooShort, tooLong

    public var description: String {
        switch self {
        case .tooShort: "A password needs at least \(Passwords.shortest) characters."
        case .tooLong: "A password can have at most \(Passwords.longest) bytes (bcrypt reads no more)."
        }
    }
}
