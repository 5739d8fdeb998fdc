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
///
/// Every term goes through here, whatever it is for — a search, a tracked term, Recents, a dataset, a feed —, so one
/// rule holds for all: at most `maximumLength` characters, and no control characters.
public struct SearchTermKey: Sendable, Hashable {
    public let shown: String
    public let key: String

    /// The longest term, in characters (Unicode scalars, as SQLite's `length` and PostgreSQL's `char_length` count
    /// them, so a store can find longer ones left by earlier releases): room for a long `OR` of hashtags (X's own
    /// query limit is 512 or 1,024 by plan), and a Recents page of a hundred such terms stays within some 500 KB.
    public static let maximumLength = 1_000

    public init(_ term: String) throws(QueryError) {
        // A term far over the limit is refused before it is copied.
        guard term.utf8.count <= Self.maximumLength * 8 else { throw QueryError.tooLong(term.unicodeScalars.count) }
        shown = term.collapsingSpaces
        guard !shown.isEmpty else { throw QueryError.empty }
        let length = shown.unicodeScalars.count
        guard length <= Self.maximumLength else { throw QueryError.tooLong(length) }
        if let control = shown.unicodeScalars.firstIndex(where: \.isControl) {
            throw QueryError.control(
                shown.unicodeScalars[control],
                at: shown.unicodeScalars.distance(
                    from: shown.unicodeScalars.startIndex, to: control) + 1)
        }
        key = shown.lowercased()
    }
}

extension Unicode.Scalar {
    /// C0, DEL and C1: characters no one types into a search, which a terminal obeys and a page cannot show. (Tabs
    /// and line breaks are white space, collapsed before this is asked.)
    fileprivate var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
