import PostgresNIO
import Posts

/// A query as one SQL statement over the posting lists: each part a relation of post keys (`k`), combined as the
/// query says — side by side by semi-joins (`EXISTS`), exclusions by anti-joins (`NOT EXISTS`), `OR` by its parts
/// merged in order (`UNION ALL` of ordered parts, duplicates dropped by `DISTINCT` on the ordered stream), a phrase
/// by its words' lists checked against the post's words — and the page the ordered walk down from the bound,
/// stopping when it is full. PostgreSQL's planner chooses which list drives a join from each term's
/// statistics, as FTS5 does for the SQLite matcher.
struct PostgresQueryPlan {
    /// The keys each part is found by: operator terms (`IndexEntry`'s keys) and words.
    let keys: Set<String>
    private let query: SearchQuery

    init(_ query: SearchQuery) {
        self.query = query
        var keys = Set<String>()
        Self.collect(query, into: &keys)
        self.keys = keys
    }

    private static func collect(_ query: SearchQuery, into keys: inout Set<String>) {
        switch query {
        case .term(let term): keys.formUnion(Self.keys(of: term))
        case .any(let parts), .all(let parts): for part in parts { collect(part, into: &keys) }
        case .excluding(let part): collect(part, into: &keys)
        }
    }

    private static func keys(of term: SearchTerm) -> [String] {
        switch term {
        case .word(let text), .phrase(let text): WordTokenizer.words(in: text)
        case .hashtag(let tag): [IndexEntry.hashtag(tag)]
        case .mention(let name): [IndexEntry.mention(name)]
        case .from(let name): [IndexEntry.from(name)]
        case .filter(let filter): [IndexEntry.filter(filter)]
        case .conversation(let id): [IndexEntry.conversation(id)]
        }
    }

    /// The statement of a page: up to `limit` keys from `bound` (inclusive) in `direction`, each with its post and
    /// people; nil when the query has nothing searchable in it.
    func page(
        ids: @escaping (String) -> Int32?, direction: WalkDirection, bound: Int64, limit: Int
    ) -> PostgresQuery? {
        let (comparison, order) = direction == .newestFirst ? ("<=", "DESC") : (">=", "ASC")
        var builder = Builder(ids: ids, order: order)
        guard let relation = builder.relation(query) else { return nil }
        let sql = """
            WITH page AS (
                SELECT DISTINCT m.k FROM (\(relation)) m WHERE m.k \(comparison) \(bound) ORDER BY m.k \(order)
                LIMIT \(limit)
            )
            \(PostgresPostLoader.select) JOIN page ON page.k = p.key ORDER BY p.key \(order)
            """
        var query = PostgresQuery(unsafeSQL: sql)
        for phrase in builder.phrases { query.binds.append(phrase) }
        return query
    }

    /// Writes the relations; phrases become parameters (`$1`, `$2`…), term ids numbers.
    private struct Builder {
        let ids: (String) -> Int32?
        /// `DESC` or `ASC`: the walk's order.
        let order: String
        var phrases: [String] = []

        mutating func relation(_ query: SearchQuery) -> String? {
            switch query {
            case .term(let term): relation(term)
            case .any(let parts): anyOf(parts)
            case .all(let parts): allOf(parts)
            case .excluding(let part): allOf([part])
            }
        }

        private mutating func anyOf(_ parts: [SearchQuery]) -> String? {
            var relations: [String] = []
            for part in parts {
                guard let relation = relation(part) else { return nil }
                // Each part ordered as the walk goes (which also keeps the planner from flattening it): the parts
                // are then merged in order (`Merge Append`) and the page stops early, where a plain union would
                // gather and sort every match first.
                relations.append("SELECT k FROM (\(relation) ORDER BY k \(order)) o")
            }
            return relations.joined(separator: " UNION ALL ")
        }

        private mutating func allOf(_ parts: [SearchQuery]) -> String? {
            var required: [String] = []
            var excluded: [String] = []
            for part in parts {
                if case .excluding(let inner) = part {
                    if case .excluding(let doubled) = inner, let relation = relation(doubled) {
                        required.append(relation)
                    } else if let relation = relation(inner) {
                        excluded.append(relation)
                    }
                } else if let relation = relation(part) {
                    required.append(relation)
                }
            }
            guard let first = required.first else { return nil }
            if required.count == 1 && excluded.isEmpty { return first }
            let conditions =
                required.dropFirst().map { "EXISTS (SELECT 1 FROM (\($0)) r WHERE r.k = a.k)" }
                + excluded.map { "NOT EXISTS (SELECT 1 FROM (\($0)) x WHERE x.k = a.k)" }
            return "SELECT a.k FROM (\(first)) a WHERE " + conditions.joined(separator: " AND ")
        }

        private mutating func relation(_ term: SearchTerm) -> String? {
            switch term {
            case .word(let text), .phrase(let text): words(WordTokenizer.words(in: text))
            default: posting(PostgresQueryPlan.keys(of: term)[0])
            }
        }

        private func posting(_ key: String) -> String {
            guard let id = ids(key) else { return "SELECT NULL::bigint AS k WHERE false" }
            return "SELECT post_key AS k FROM corpus_posting WHERE term_id = \(id)"
        }

        /// All the words, adjacent and in order: each word's list, and for more than one the post's words checked.
        private mutating func words(_ words: [String]) -> String? {
            guard let first = words.first else { return nil }
            if words.count == 1 { return posting(first) }
            phrases.append(" " + words.joined(separator: " ") + " ")
            let others = Set(words.dropFirst()).subtracting([first]).sorted().map {
                "EXISTS (SELECT 1 FROM (\(posting($0))) w WHERE w.k = f.k)"
            }
            let phrase = """
                EXISTS (SELECT 1 FROM corpus_post p WHERE p.key = f.k
                    AND strpos(' ' || p.words || ' ', $\(phrases.count)) > 0)
                """
            return "SELECT f.k FROM (\(posting(first))) f WHERE " + (others + [phrase]).joined(separator: " AND ")
        }
    }
}
