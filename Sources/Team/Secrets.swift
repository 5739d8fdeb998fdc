import Crypto
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The random secrets Smashtag hands out, and the hashes it keeps of them instead: a sign-in's session id (in its
/// cookie) and a script's token (`smashtag_` + 8 characters that name it in lists + `_` + 43 secret ones). Both carry
/// 256 random bits, so a plain SHA-256 is enough to store them by; only passwords, which people choose, need bcrypt.
public enum Secrets {
    public static let tokenScheme = "smashtag_"

    /// 43 URL-safe characters.
    public static func sessionID() -> String {
        randomText(bytes: 32)
    }

    /// A new token and the prefix that names it.
    public static func token() -> (token: String, prefix: String) {
        // Letters and digits only, so that a prefix reads as one word in lists and the audit trail.
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var random = SystemRandomNumberGenerator()
        let prefix = String((0..<8).map { _ in alphabet[Int(random.next(upperBound: UInt32(alphabet.count)))] })
        return (tokenScheme + prefix + "_" + randomText(bytes: 32), prefix)
    }

    /// Whether `text` has a token's shape (checked before the store is asked).
    public static func isTokenShaped(_ text: some StringProtocol) -> Bool {
        text.hasPrefix(tokenScheme) && text.utf8.count == tokenScheme.utf8.count + 8 + 1 + 43
            && text.utf8.allSatisfy { isURLSafe($0) }
    }

    /// Whether `text` has a session id's shape.
    public static func isSessionShaped(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy { isURLSafe($0) }
    }

    /// The SHA-256 the store keeps, in hex.
    public static func hash(_ secret: some StringProtocol) -> String {
        SHA256.hash(data: Array(secret.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    private static func randomText(bytes: Int) -> String {
        var random = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    private static func isURLSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
