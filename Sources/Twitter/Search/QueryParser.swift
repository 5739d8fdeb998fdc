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

    /// Whether the query matches by what tweets contain, not only by what they lack.
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
/// `unary := "-" unary | "(" query ")" | term`.
private struct QueryParser {
    let tokens: [QueryToken]
    var index = 0

    var atEnd: Bool { index == tokens.count }

    mutating func parseQuery() throws(QueryError) -> SearchQuery {
        let query = try parseOr()
        if !atEnd { throw QueryError("There is a “)” without a “(” before it.") }
        return query
    }

    private mutating func parseOr() throws(QueryError) -> SearchQuery {
        var alternatives = [try parseAnd()]
        while take(.or) {
            guard !atEnd, tokens[index] != .close else { throw QueryError("“OR” needs something to search for after it.") }
            alternatives.append(try parseAnd())
        }
        guard alternatives.allSatisfy(\.isLookingForSomething) || alternatives.count == 1 else {
            throw QueryError("Each side of “OR” needs something to look for, not only exclusions.")
        }
        return alternatives.count == 1 ? alternatives[0] : .any(alternatives)
    }

    private mutating func parseAnd() throws(QueryError) -> SearchQuery {
        var parts: [SearchQuery] = []
        while !atEnd, tokens[index] != .or, tokens[index] != .close {
            parts.append(try parseUnary())
        }
        guard !parts.isEmpty else { throw QueryError("“OR” needs something to search for before it.") }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    private mutating func parseUnary() throws(QueryError) -> SearchQuery {
        if take(.exclude) {
            guard !atEnd, tokens[index] != .close, tokens[index] != .or else {
                throw QueryError("“-” must be followed by what to exclude, with no space: -word.")
            }
            return .excluding(try parseUnary())
        }
        if take(.open) {
            guard !atEnd else { throw QueryError("A “(” is never closed with “)”.") }
            guard tokens[index] != .close else { throw QueryError("The parentheses “()” are empty.") }
            let inner = try parseOr()
            guard take(.close) else { throw QueryError("A “(” is never closed with “)”.") }
            return inner
        }
        guard case .term(let term) = tokens[index] else { throw QueryError("There is a “)” without a “(” before it.") }
        index += 1
        return .term(term)
    }

    private mutating func take(_ token: QueryToken) -> Bool {
        guard !atEnd, tokens[index] == token else { return false }
        index += 1
        return true
    }
}
