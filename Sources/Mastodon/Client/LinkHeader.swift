/// Mastodon's `Link` header: `<…?max_id=1>; rel="next", <…?min_id=9>; rel="prev"`. Only the ids are taken from it;
/// requests are always built on the configured server, never sent where a header points.
struct LinkHeader: Equatable {
    /// `max_id` of the `next` link: where older statuses continue.
    var olderID: String?
    /// `min_id` of the `prev` link: where newer statuses continue.
    var newerID: String?

    init(olderID: String? = nil, newerID: String? = nil) {
        self.olderID = olderID
        self.newerID = newerID
    }

    init(_ header: String) {
        for link in header.split(separator: ",") {
            let fields = link.split(separator: ";").map { $0.filter { !$0.isWhitespace } }
            guard let target = fields.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let query = target.dropFirst().dropLast().split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            if fields.contains(#"rel="next""#) || fields.contains("rel=next") {
                olderID = Self.value(of: "max_id", in: query)
            }
            if fields.contains(#"rel="prev""#) || fields.contains("rel=prev") {
                newerID = Self.value(of: "min_id", in: query)
            }
        }
    }

    private static func value(of name: String, in query: Substring) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == name { return String(parts[1]) }
        }
        return nil
    }
}
