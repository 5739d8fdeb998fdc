import Foundation

/// Which links name a person, and the form of each without the name: a permalink such as `x.com/HANDLE/status/ID`
/// becomes `x.com/i/status/ID`, which X serves for any post; a profile, or a post on a network whose addresses all
/// carry the author (Mastodon's `/@name/ID`, Bluesky's `/profile/…/post/…`), is left out.
struct PersonLinks {
    enum Verdict: Equatable {
        case keep
        case rewrite(String)
        case drop
    }

    /// The post's people as links spell them, lower-cased: handles (`alice`, `alice@example.social`,
    /// `alice.bsky.social`) and DIDs.
    let people: Set<String>

    /// X's first path segments that are pages of the site, not people.
    private static let xPages: Set<String> = [
        "i", "home", "search", "hashtag", "explore", "intent", "share", "settings", "messages", "notifications",
        "tos", "privacy", "login", "signup", "compose", "about",
    ]
    private static let xHosts: Set<String> = [
        "x.com", "twitter.com", "www.x.com", "www.twitter.com", "mobile.twitter.com", "mobile.x.com",
    ]

    func verdict(_ link: String) -> Verdict {
        let address = Address(link)
        if Self.xHosts.contains(address.host) { return xVerdict(address) }
        if address.host == "bsky.app" || address.host == "staging.bsky.app",
            address.segments.first == "profile"
        {
            return .drop
        }
        if address.segments.first?.hasPrefix("@") == true { return .drop }
        return names(address) ? .drop : .keep
    }

    /// Whether `text` (a picture's address, a card's) holds one of the post's people: a DID anywhere, or a handle
    /// as a whole path segment.
    func names(_ text: String) -> Bool {
        names(Address(text))
    }

    private func names(_ address: Address) -> Bool {
        let lower = address.whole
        if people.contains(where: { $0.hasPrefix("did:") && lower.contains($0) }) { return true }
        return address.segments.contains { segment in
            let name = segment.hasPrefix("@") ? String(segment.dropFirst()) : segment
            return people.contains(name) || people.contains("\(name)@\(address.host)")
        }
    }

    private func xVerdict(_ address: Address) -> Verdict {
        let segments = address.segments
        guard let first = segments.first, !Self.xPages.contains(first) else { return .keep }
        if segments.count >= 3, segments[1] == "status" || segments[1] == "statuses",
            !segments[2].isEmpty, segments[2].allSatisfy(\.isASCIIDigit)
        {
            return .rewrite("https://x.com/i/status/\(segments[2])")
        }
        return .drop
    }
}

/// A link cut into its lower-cased host and path segments, by hand: links in posts are often not valid URLs
/// (`example.com/a…` as shown), and only the host and the path matter here.
private struct Address {
    let whole: String
    let host: String
    let segments: [String]

    init(_ link: String) {
        whole = link.lowercased().removingPercentEncodedColons
        var rest = Substring(whole)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let end = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        let parts = rest[..<end].split(separator: "/", omittingEmptySubsequences: true)
        let authority = parts.first.map(String.init) ?? ""
        host = String(authority.split(separator: "@").last?.split(separator: ":").first ?? "")
        segments = parts.dropFirst().map(String.init)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    /// `did%3Aplc%3A…` as `did:plc:…`, as Bluesky's picture addresses may spell a DID.
    fileprivate var removingPercentEncodedColons: String {
        contains("%3a") ? replacingOccurrences(of: "%3a", with: ":") : self
    }
}
