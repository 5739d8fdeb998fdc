/// A post named the ways people copy one: `network:id` (`twitter:1850…`, `mastodon:1133…`, `bluesky:at://…`), an
/// `at://` URI, a bare X id, or its address on X (`x.com/…/status/ID`), Bluesky (`bsky.app/profile/NAME/post/KEY`)
/// or a Mastodon server (`HOST/@name/ID`, `HOST/users/name/statuses/ID`: the id that server gives it).
public enum PostAddress {
    public static func key(_ text: String) -> PostKey? {
        let text = text.trimmingWhitespace
        if text.hasPrefix("at://") { return PostKey(network: .bluesky, id: text) }
        if text.hasPrefix("https://") || text.hasPrefix("http://") { return fromWebAddress(text) }
        if text.hasPrefix("x:") { return PostKey(network: .twitter, id: String(text.dropFirst(2))) }
        if text.allSatisfy(\.isNumber) { return text.isEmpty ? nil : PostKey(network: .twitter, id: text) }
        return PostKey(text).flatMap { $0.id.isEmpty ? nil : $0 }
    }

    /// What the address names, once its scheme is gone: a host, then path segments.
    private static func fromWebAddress(_ text: String) -> PostKey? {
        let rest = text.split(separator: "://", maxSplits: 1).last.map(String.init) ?? ""
        let path = rest.split(separator: "?").first.map { $0.split(separator: "#").first ?? $0 } ?? ""
        let parts = path.split(separator: "/").map(String.init)
        guard let host = parts.first?.lowercased(), parts.count >= 3 else { return nil }
        let segments = Array(parts.dropFirst())
        if ["x.com", "twitter.com", "www.x.com", "www.twitter.com", "mobile.twitter.com"].contains(host) {
            guard let index = segments.firstIndex(of: "status"), index + 1 < segments.count else { return nil }
            return PostKey(network: .twitter, id: segments[index + 1])
        }
        if host == "bsky.app", segments.count == 4, segments[0] == "profile", segments[2] == "post" {
            return PostKey(network: .bluesky, id: "at://\(segments[1])/app.bsky.feed.post/\(segments[3])")
        }
        if segments.count == 2, segments[0].hasPrefix("@") { return PostKey(network: .mastodon, id: segments[1]) }
        if segments.count == 4, segments[0] == "users", segments[2] == "statuses" {
            return PostKey(network: .mastodon, id: segments[3])
        }
        return nil
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
