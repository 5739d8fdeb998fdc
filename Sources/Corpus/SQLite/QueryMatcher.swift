import GRDB
import Posts

/// Finds the order keys of the posts matching a query, a page at a time: the whole query is one FTS5 expression
/// over the search index (`SearchTokens`), walked in key order and stopped when the page is full, so FTS5 combines
/// the lists itself — skipping through the longer ones by their doclist indexes — and a page costs one statement.
struct QueryMatcher {
    private let expression: String?
    private let statement: Statement?
    private let direction: WalkDirection

    init(db: Database, query: SearchQuery, direction: WalkDirection) throws {
        self.direction = direction
        expression = MatchExpression.of(query)
        statement =
            expression == nil
            ? nil
            : try db.cachedStatement(
                // A row is its post's key negated (`SearchIndex`): newest first is the rows' ascending order.
                sql: direction == .newestFirst
                    ? """
                    SELECT -rowid FROM searchIndex WHERE searchIndex MATCH ?1 AND rowid >= -?2 \
                    ORDER BY rowid ASC LIMIT ?3
                    """
                    : """
                    SELECT -rowid FROM searchIndex WHERE searchIndex MATCH ?1 AND rowid <= -?2 \
                    ORDER BY rowid DESC LIMIT ?3
                    """)
    }

    /// Up to `count` ids in the walk's direction, from `bound` (inclusive).
    func ids(from bound: Int64, count: Int) throws -> [Int64] {
        guard let statement, let expression, count > 0 else { return [] }
        try statement.setArguments([expression, bound, count])
        return try statement.integers(expecting: count)
    }
}

/// Which way a page walks the matches.
enum WalkDirection {
    case newestFirst
    case oldestFirst
}

/// A query as an FTS5 expression over the search index. A part with nothing searchable in it (a word of
/// punctuation) constrains nothing: it is nil here, and left out of the `AND` it is in; an `OR` with such a part
/// is itself nil (one side matches everything); a query that is nil matches nothing.
enum MatchExpression {
    static func of(_ query: SearchQuery) -> String? {
        switch query {
        case .term(let term): of(term)
        case .any(let parts): anyOf(parts)
        case .all(let parts): allOf(parts)
        case .excluding(let part): allOf([part])
        }
    }

    private static func anyOf(_ parts: [SearchQuery]) -> String? {
        let expressions = parts.map(of)
        guard !expressions.contains(where: { $0 == nil }) else { return nil }
        return grouped(expressions.compactMap { $0 }, by: "OR")
    }

    /// Required parts `AND`ed, excluded ones taken out with `NOT`; a doubled exclusion is required.
    private static func allOf(_ parts: [SearchQuery]) -> String? {
        var required: [String] = []
        var excluded: [String] = []
        for part in parts {
            if case .excluding(let inner) = part {
                if case .excluding(let doubled) = inner, let expression = of(doubled) {
                    required.append(expression)
                } else if let expression = of(inner) {
                    excluded.append(expression)
                }
            } else if let expression = of(part) {
                required.append(expression)
            }
        }
        guard !required.isEmpty else { return nil }
        let all = grouped(required, by: "AND")
        return excluded.isEmpty ? all : "(\(all) NOT \(grouped(excluded, by: "OR")))"
    }

    private static func of(_ term: SearchTerm) -> String? {
        switch term {
        case .word(let text), .phrase(let text):
            let words = WordTokenizer.words(in: text)
            return words.isEmpty ? nil : SearchTokens.phrase(words)
        case .hashtag(let tag): return SearchTokens.termQuery(IndexEntry.hashtag(tag))
        case .mention(let name): return SearchTokens.termQuery(IndexEntry.mention(name))
        case .from(let name): return SearchTokens.termQuery(IndexEntry.from(name))
        case .filter(let filter): return SearchTokens.termQuery(IndexEntry.filter(filter))
        case .conversation(let id): return SearchTokens.termQuery(IndexEntry.conversation(id))
        }
    }

    private static func grouped(_ expressions: [String], by operator: String) -> String {
        expressions.count == 1 ? expressions[0] : "(" + expressions.joined(separator: " \(`operator`) ") + ")"
    }
}
