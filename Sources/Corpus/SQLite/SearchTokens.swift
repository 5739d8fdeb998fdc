/// What the SQLite corpus's full-text index holds for a post, as tokens of FTS5's `ascii` tokenizer (which cuts only
/// at ASCII spaces and punctuation, keeping every other character): its words (`WordTokenizer`'s, in order), each
/// pair of adjacent words as one token, and each operator term (`#tag`, `from:user`, `filter:…`) as one token.
///
/// With everything a query names in one index, a whole query is one FTS5 expression, and FTS5 intersects its lists
/// itself, skipping through each list's pages by its doclist index: `#tag word` no longer probes one list with a new
/// statement for every key of the other. A phrase is a list of its own: two words are one pair token, more are an
/// FTS5 phrase of pair tokens (pairs are indexed in order, one position apart, so that is exact).
///
/// The tokens cannot meet: a word never holds a private-use character (`WordTokenizer` cuts at them), a pair starts
/// with a word's character and joins with `pairJoiner`, a term starts with `termMark` and spells every ASCII
/// character but lower-case letters and digits as `escape` and two hex digits.
enum SearchTokens {
    static let termMark: Unicode.Scalar = "\u{E000}"
    static let pairJoiner: Unicode.Scalar = "\u{E001}"
    static let escape: Unicode.Scalar = "\u{E002}"

    /// A post's row in the index: its words, then its pairs (adjacent positions, so phrases of pairs match), then
    /// its terms.
    static func text(words: [String], terms: some Sequence<String>) -> String {
        var text = String()
        text.reserveCapacity(words.reduce(0) { $0 + 2 * $1.utf8.count + 5 } + 64)
        for word in words { append(word, to: &text) }
        for (first, second) in zip(words, words.dropFirst()) { append(pair(first, second), to: &text) }
        for key in terms { append(term(key), to: &text) }
        return text
    }

    /// An operator term's token: `termMark`, then the key with ASCII other than `a-z0-9` escaped.
    static func term(_ key: String) -> String {
        var token = String.UnicodeScalarView()
        token.append(termMark)
        for scalar in key.unicodeScalars {
            if scalar.isASCII, !(("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)) {
                token.append(escape)
                token.append(hexDigits[Int(scalar.value >> 4)])
                token.append(hexDigits[Int(scalar.value & 0xF)])
            } else if scalar == escape {
                token.append(contentsOf: [escape, escape])
            } else {
                token.append(scalar)
            }
        }
        return String(token)
    }

    /// Two adjacent words as one token.
    static func pair(_ first: String, _ second: String) -> String {
        first + String(pairJoiner) + second
    }

    /// The FTS5 query for `words` side by side, in order: a word, a pair, or a phrase of pairs.
    static func phrase(_ words: [String]) -> String {
        let tokens = words.count == 1 ? words : zip(words, words.dropFirst()).map(pair)
        return "\"" + tokens.joined(separator: " ") + "\""
    }

    /// A term as an FTS5 query.
    static func termQuery(_ key: String) -> String {
        "\"" + term(key) + "\""
    }

    private static func append(_ token: String, to text: inout String) {
        if !text.isEmpty { text.append(" ") }
        text.append(token)
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)
}
