import Posts

/// The users a query names that X cannot have: a Mastodon name longer than X's 15 characters, a Mastodon address or
/// a Bluesky handle. X is not asked about them; its answer would be a 400 about the query, not the sentence a person
/// needs.
enum XUserNames {
    /// Refuses a query that names a user X cannot have, with a sentence saying whose name it is. A query Smashtag
    /// cannot read goes to X as it is: X knows operators Smashtag does not (`lang:`), and says what it refuses.
    static func check(_ text: String) throws(QueryError) {
        guard let query = try? SearchQuery(parsing: text), let name = firstForeign(in: query) else { return }
        throw QueryError("X names have 1–15 letters, digits or _, so X cannot have “\(name)”: \(owner(of: name)).")
    }

    private static func owner(of name: String) -> String {
        if name.contains("@") { return "it is a Mastodon address" }
        if name.contains(".") { return "it is a Bluesky handle" }
        return "it is a Mastodon name on the configured server"
    }

    private static func firstForeign(in query: SearchQuery) -> String? {
        switch query {
        case .term(.from(let name)), .term(.mention(let name)): UserName.isXName(name) ? nil : name
        case .term: nil
        case .all(let parts), .any(let parts): parts.lazy.compactMap(firstForeign).first
        case .excluding(let part): firstForeign(in: part)
        }
    }
}
