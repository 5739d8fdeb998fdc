extension StringProtocol {
    /// Trimmed, each run of white space one space: a term, a query or a mention as people type it, the same however
    /// it was spaced.
    public var collapsingSpaces: String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// A search term as typed (spaces collapsed) and the key that makes terms the same: terms are compared
/// case-insensitively after trimming and collapsing spaces, so `#Stanford` and ` #stanford ` are one term, shown with
/// the newest spelling.
public struct SearchTermKey: Sendable, Hashable {
    public let shown: String
    public let key: String

    public init(_ term: String) throws(QueryError) {
        shown = term.collapsingSpaces
        key = shown.lowercased()
        guard !shown.isEmpty else { throw QueryError.empty }
    }
}
