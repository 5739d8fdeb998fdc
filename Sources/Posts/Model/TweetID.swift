/// The one rule for a tweet's id, shared by every decoder and the corpus, so what `inspect` prints `import` can
/// store: a whole number from 1 to 2⁶³−1 (what Twitter issues, and what the corpus's 64-bit keys hold), in plain
/// digits, without sign or leading zeros (so one tweet never has two spellings).
public enum TweetID {
    public static func isValid(_ id: String) -> Bool {
        let digits = id.utf8
        guard let first = digits.first, first != UInt8(ascii: "0"), digits.count <= 19,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return false }
        return Int64(id) != nil
    }

    /// Valid ids compare as numbers: a longer decimal is a later tweet.
    public static func isBefore(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count != rhs.utf8.count ? lhs.utf8.count < rhs.utf8.count : lhs < rhs
    }

    /// Why `id` is not a tweet id, in a sentence that shows at most the start of it; nil when it is one.
    public static func problem(with id: String) -> String? {
        isValid(id) ? nil : "the tweet id “\(id.excerpt())” is not a whole number from 1 to \(Int64.max)"
    }
}
