/// The users a query can name, on every network, and the rules each network gives its names:
/// - X: 1–15 letters, digits or `_` (`nasa`);
/// - Mastodon: a local name has 1–30 letters, digits or `_` (`WrongSopranosFacts`), an address adds the server
///   (`alice@example.social`), and names from other servers may have `.` and `-` inside;
/// - Bluesky: a handle is a domain name (`alice.bsky.social`).
///
/// A bare name X could have is X's or a Mastodon local name; one of 16–30 such characters can only be a Mastodon
/// local name (on the configured server), so every source reads it that way.
package enum UserName {
    static let xLimit = 15
    static let mastodonLocalLimit = 30

    static func isValid(_ name: String) -> Bool {
        problem(with: name) == nil
    }

    /// Whether X could have this name: only then does a query for it reach X.
    package static func isXName(_ name: some StringProtocol) -> Bool {
        name.count <= xLimit && isWordName(name)
    }

    /// Why no network has this name, naming the rules it breaks; nil for a name some network could have.
    static func problem(with name: String) -> String? {
        let parts = name.split(separator: "@", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return bareProblem(name)
        case 2: return addressProblem(user: parts[0], server: parts[1])
        default: return "a Mastodon address has one @ between the name and the server, like alice@example.social."
        }
    }

    private static func bareProblem(_ name: String) -> String? {
        if isWordName(name) {
            guard name.count > mastodonLocalLimit else { return nil }
            return "it has \(name.count) characters, and X names have at most \(xLimit), Mastodon names at most "
                + "\(mastodonLocalLimit)."
        }
        if name.contains("."), isDomain(Substring(name)) { return nil }
        if name.contains(".") {
            return "a Bluesky handle is a domain name (labels of letters, digits and inner - between dots, like "
                + "alice.bsky.social), and X and Mastodon names have letters, digits and _ only."
        }
        return "X and Mastodon names have letters, digits and _ only (X up to \(xLimit), Mastodon up to "
            + "\(mastodonLocalLimit)), and a Bluesky handle is a domain name like alice.bsky.social."
    }

    private static func addressProblem(user: Substring, server: Substring) -> String? {
        guard isMastodonUser(user) else {
            return "a Mastodon address starts with a name of letters, digits and _ (with . or - inside), like "
                + "alice@example.social."
        }
        guard isDomain(server) else {
            return "a Mastodon address ends with its server's domain name, like alice@example.social."
        }
        return nil
    }

    private static func isWordName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// A name on any Mastodon server (Mastodon's own account pattern): letters, digits and `_`, with `.` and `-`
    /// inside, as remote servers' names may have.
    private static func isMastodonUser(_ name: Substring) -> Bool {
        guard let first = name.first, let last = name.last, name.count <= 64 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
            && !".-".contains(first) && !".-".contains(last)
    }

    /// Two or more labels of letters, digits and inner `-`, as DNS allows.
    private static func isDomain(_ name: Substring) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && name.count <= 253
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }
}
