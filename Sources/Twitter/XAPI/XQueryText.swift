/// A query as X API v2 spells it. Smashtag reads the v1.1 filters people know (`filter:media`, `filter:links`,
/// `filter:retweets`, `filter:replies`) beside v2's, but v2's search refuses the old ones (“Reference to invalid
/// operator”), so they go to X as `has:media`, `has:links`, `is:retweet` and `is:reply`; everything else — quoted
/// phrases included — goes as it was typed.
enum XQueryText {
    private static let v2: [String: String] = [
        "filter:media": "has:media", "filter:images": "has:images", "filter:links": "has:links",
        "filter:retweets": "is:retweet", "filter:replies": "is:reply",
    ]
    /// Smashtag's `conversation:ID` is X's own `conversation_id:ID`.
    private static let prefixes = ["conversation:": "conversation_id:"]

    static func v2(_ text: String) -> String {
        var result = ""
        var word = ""
        var quoted = false
        func flush() {
            let sign = word.hasPrefix("-") ? "-" : ""
            let bare = String(word.dropFirst(sign.count))
            if let spelled = v2[bare.lowercased()] {
                result += sign + spelled
            } else if let (prefix, spelled) = prefixes.first(where: { bare.lowercased().hasPrefix($0.key) }) {
                result += sign + spelled + bare.dropFirst(prefix.count)
            } else {
                result += word
            }
            word = ""
        }
        for character in text {
            if quoted {
                result.append(character)
                quoted = character != "\""
            } else if character == "\"" {
                flush()
                quoted = true
                result.append(character)
            } else if character.isWhitespace || character == "(" || character == ")" {
                flush()
                result.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return result
    }
}
