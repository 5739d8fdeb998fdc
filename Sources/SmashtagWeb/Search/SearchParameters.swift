import Posts

/// What a Search page or `/api/search` was asked for: the query, the sources and where each of them stands.
///
/// Sources come from the links' positions (`since=corpus:123,mastodon:456` lists the sources it continues), else
/// from `source=` (the form's toggles, or a comma list), else from the choice the person last made (a cookie), else
/// every source the site offers.
struct SearchParameters {
    static let cookieName = "smashtag_sources"

    let query: String?
    /// The sources the site offers and those chosen (in the site's order; none when the person turned every
    /// toggle off).
    let choice: PageSources
    let position: MergedPosition
    /// The toggles were submitted: the choice is remembered.
    let isNewChoice: Bool
    /// The names `source=` gives that the site does not offer (not configured here, or not to this caller): the JSON
    /// twin names each in `errors` rather than dropping it unsaid.
    let unoffered: [String]

    /// `cookie`: the choice remembered, as `cookieName` holds it.
    init(_ parameters: QueryString, cookie: String?, offered: SourceSet) {
        query = parameters.text("q")
        let chosen = Self.chosen(parameters, cookie: cookie)
        isNewChoice = chosen.isNew
        unoffered = chosen.isNew ? (chosen.names ?? []).filter { !offered.names.contains($0) } : []
        if let since = parameters["since"] {
            position = .newer(PositionList.decode(Substring(since), older: false, offered: offered))
        } else if let before = parameters["before"] {
            position = .older(PositionList.decode(Substring(before), older: true, offered: offered))
        } else {
            position = .newest
        }
        let sources =
            switch position {
            case .newest: Self.sources(chosen, offered: offered)
            case .newer(let positions), .older(let positions): offered.choosing(positions.keys)
            }
        choice = PageSources(offered: offered, chosen: sources)
    }

    var sources: SourceSet { choice.chosen }

    /// The names `source=` gives (several parameters or a comma list; `sources=` marks the form, sent even when
    /// every toggle is off), else the remembered ones; nil for every offered source.
    private static func chosen(_ parameters: QueryString, cookie: String?) -> (names: [String]?, isNew: Bool) {
        let values = parameters.all("source")
        if !values.isEmpty || parameters["sources"] != nil {
            return (values.flatMap { $0.split(separator: ",").map(String.init) }, true)
        }
        return (cookie.map { $0.split(separator: ".").map(String.init) }, false)
    }

    /// The sources named: all of them when none is named, and when a remembered choice names none the site still
    /// offers; a choice made just now may name none (the page then asks for one).
    private static func sources(_ chosen: (names: [String]?, isNew: Bool), offered: SourceSet) -> SourceSet {
        guard let names = chosen.names else { return offered }
        let sources = offered.choosing(names)
        return sources.sources.isEmpty && !chosen.isNew ? offered : sources
    }

    /// The `Set-Cookie` value that remembers this choice for a year.
    var rememberingCookie: String {
        "\(Self.cookieName)=\(sources.names.joined(separator: ".")); Path=/; Max-Age=31536000; SameSite=Lax"
    }
}

/// Each source's position as a link carries it: `corpus:123,mastodon:` (after the colon the id of the post to go on
/// from; nothing for a source's newest posts). An id alone, as links of earlier releases had, is an X id: it goes
/// on in the corpus and the X API.
enum PositionList {
    static func encode(_ positions: [(String, SearchRequest.Position)]) -> String {
        positions.map { name, position in "\(name):\(position.postID ?? "")" }.joined(separator: ",")
    }

    static func decode(_ text: Substring, older: Bool, offered: SourceSet) -> [String: SearchRequest.Position] {
        let offeredNames = Set(offered.names)
        var positions: [String: SearchRequest.Position] = [:]
        for item in text.split(separator: ",") {
            guard let colon = item.firstIndex(of: ":") else {
                for name in ["corpus", "x"] where offeredNames.contains(name) {
                    positions[name] = position(String(item), older: older)
                }
                continue
            }
            let name = String(item[..<colon])
            guard offeredNames.contains(name) else { continue }
            let id = item[item.index(after: colon)...]
            positions[name] = id.isEmpty ? .newest : position(String(id), older: older)
        }
        return positions
    }

    private static func position(_ id: String, older: Bool) -> SearchRequest.Position {
        older ? .older(than: id, token: nil) : .newer(than: id)
    }
}

extension SearchRequest.Position {
    /// The post a position goes on from; nil for the newest posts.
    var postID: String? {
        switch self {
        case .newest: nil
        case .newer(let id), .older(let id, _): id
        }
    }
}
