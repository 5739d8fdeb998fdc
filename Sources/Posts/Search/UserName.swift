/// The users a query can name, on every network: an X name (`nasa`), a Mastodon address (`alice@example.social`)
/// or a Bluesky handle, which is a domain name (`alice.bsky.social`).
enum UserName {
    static func isValid(_ name: String) -> Bool {
        let parts = name.split(separator: "@", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return isXName(name) || isDomain(Substring(name))
        case 2: return isMastodonUser(parts[0]) && isDomain(parts[1])
        default: return false
        }
    }

    private static func isXName(_ name: String) -> Bool {
        name.count <= 15 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Mastodon's usernames: letters, digits and `_`, with `.` and `-` inside.
    private static func isMastodonUser(_ name: Substring) -> Bool {
        guard let first = name.first, let last = name.last, name.count <= 64 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
            && !".-".contains(first) && !".-".contains(last)
    }

    /// Two or more labels of letters, digits and inner `-`, as DNS allows.
    private static func isDomain(_ name: Substring) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && name.count <= 253 && labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
