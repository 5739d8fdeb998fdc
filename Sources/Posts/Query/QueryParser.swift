/// Reads Twitter's search syntax (see `SearchQuery`) into a typed query.
extension SearchQuery {
    /// Parses `text`; throws a one-sentence `QueryError` for anything malformed.
    public init(parsing text: String) throws(QueryError) {
        var parser = QueryParser(tokens: try QueryLexer.tokens(of: text))
        guard !parser.atEnd else { throw QueryError.empty }
        self = try parser.parseQuery()
        guard isLookingForSomething else {
            throw QueryError("A search needs something to look for, not only exclusions: add a term without a “-”.")
        }
    }

    /// Whether the query matches by what posts contain, not only by what they lack.
    var isLookingForSomething: Bool {
        switch self {
        case .term: true
        case .excluding: false
        case .all(let parts): parts.contains(where: \.isLookingForSomething)
        case .any(let parts): parts.allSatisfy(\.isLookingForSomething)
        }
    }
}

/// Recursive descent over the lexer's tokens: `query := and ("OR" and)*`, `and := unary+`,
/// `unary := "-" unary | "(" query ")" | term`. An error names the token it is about and its character.
private struct QueryParser {
    let tokens: [PlacedToken]
    var index = 0

    var atEnd: Bool { index == tokens.count }
    private var current: QueryToken? { atEnd ? nil : tokens[index].token }
    private var character: Int { tokens[min(index, tokens.count - 1)].character }

    mutating func parseQuery() throws(QueryError) -> SearchQuery {
        let query = try parseOr()
        if !atEnd { throw unopenedClose() }
        return query
    }

    private mutating func parseOr() throws(QueryError) -> SearchQuery {
        var alternatives = [try parseAnd()]
        while current == .or {
            let or = character
            index += 1
            guard let next = current, next != .close else {
                throw QueryError("“OR” at character \(or) needs something to search for after it.")
            }
            alternatives.append(try parseAnd())
        }
        guard alternatives.allSatisfy(\.isLookingForSomething) || alternatives.count == 1 else {
            throw QueryError("Each side of “OR” needs something to look for, not only exclusions.")
        }
        return alternatives.count == 1 ? alternatives[0] : .any(alternatives)
    }

    private mutating func parseAnd() throws(QueryError) -> SearchQuery {
        var parts: [SearchQuery] = []
        while let token = current, token != .or, token != .close {
            parts.append(try parseUnary())
        }
        guard !parts.isEmpty else {
            throw current == .close
                ? unopenedClose()
                : QueryError("“OR” at character \(character) needs something to search for before it.")
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    private mutating func parseUnary() throws(QueryError) -> SearchQuery {
        let start = character
        if take(.exclude) {
            guard let next = current, next != .close, next != .or else {
                throw QueryError("“-” at character \(start) must be followed by what to exclude, with no space: -word.")
            }
            return .excluding(try parseUnary())
        }
        if take(.open) {
            guard let next = current else { throw unclosedOpen(at: start) }
            guard next != .close else { throw QueryError("The parentheses “()” at character \(start) are empty.") }
            let inner = try parseOr()
            guard take(.close) else { throw unclosedOpen(at: start) }
            return inner
        }
        guard case .term(let term) = current else { throw unopenedClose() }
        index += 1
        return .term(term)
    }

    private func unopenedClose() -> QueryError {
        QueryError("There is a “)” at character \(character) without a “(” before it.")
    }

    private func unclosedOpen(at character: Int) -> QueryError {
        QueryError("The “(” at character \(character) is never closed with “)”.")
    }

    private mutating func take(_ token: QueryToken) -> Bool {
        guard current == token else { return false }
        index += 1
        return true
    }
}
