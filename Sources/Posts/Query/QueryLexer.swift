/// A piece of a query.
enum QueryToken: Hashable {
    case term(SearchTerm)
    case or
    case exclude
    case open
    case close
}

/// A token and where it starts: the 1-based character of the query, so an error can say where it is.
struct PlacedToken {
    let token: QueryToken
    let character: Int
}

/// Cuts a query into tokens: terms, `OR`, a `-` glued to what follows, parentheses, `"quoted phrases"`.
enum QueryLexer {
    static func tokens(of text: String) throws(QueryError) -> [PlacedToken] {
        var tokens: [PlacedToken] = []
        var rest = Substring(text)
        while let first = rest.first {
            let character = text.distance(from: text.startIndex, to: rest.startIndex) + 1
            func add(_ token: QueryToken) { tokens.append(PlacedToken(token: token, character: character)) }
            if first.isWhitespace {
                rest.removeFirst()
            } else if first == "(" || first == ")" {
                add(first == "(" ? .open : .close)
                rest.removeFirst()
            } else if first == "-" {
                rest.removeFirst()
                guard let next = rest.first, !next.isWhitespace else {
                    throw QueryError(
                        "“-” at character \(character) must be followed by what to exclude, with no space: -word.")
                }
                add(.exclude)
            } else if first == "\"" || first == "“" {
                add(.term(try phrase(&rest)))
            } else {
                let word = rest.prefix { !$0.isWhitespace && $0 != "(" && $0 != ")" && $0 != "\"" && $0 != "“" }
                rest.removeFirst(word.count)
                add(word == "OR" ? .or : .term(try SearchTerm(word: String(word))))
            }
        }
        return tokens
    }

    /// `"exact phrase"` (typographic quotes too, as a phone keyboard types them).
    private static func phrase(_ rest: inout Substring) throws(QueryError) -> SearchTerm {
        rest.removeFirst()
        guard let end = rest.firstIndex(where: { $0 == "\"" || $0 == "”" || $0 == "“" }) else {
            throw QueryError("A quoted phrase is missing its closing quote (\").")
        }
        let phrase = rest[..<end].collapsingSpaces
        rest = rest[rest.index(after: end)...]
        guard !phrase.isEmpty else {
            throw QueryError("The quotes \"\" are empty: put the exact phrase to find between them.")
        }
        return .phrase(phrase)
    }
}

extension SearchTerm {
    /// One unquoted word of a query: an operator, `#tag`, `@user`, or a plain word.
    init(word: String) throws(QueryError) {
        if let first = word.first, first == "#" || first == "＃" {
            self = .hashtag(try Self.hashtag(String(word.dropFirst()), typed: word))
        } else if let first = word.first, first == "@" || first == "＠" {
            self = .mention(try Self.handle(String(word.dropFirst()), typed: word))
        } else if let colon = word.firstIndex(of: ":"), Self.isOperatorName(word[..<colon]) {
            self = try Self.operator(
                String(word[..<colon]).lowercased(), value: String(word[word.index(after: colon)...]))
        } else {
            self = .word(word)
        }
    }

    private static func `operator`(_ name: String, value: String) throws(QueryError) -> SearchTerm {
        switch (name, value.lowercased()) {
        case ("from", _):
            return .from(try handle(value.hasPrefix("@") ? String(value.dropFirst()) : value, typed: "from:" + value))
        case ("filter", "media"), ("has", "media"), ("filter", "images"), ("has", "images"): return .filter(.media)
        case ("filter", "links"), ("has", "links"): return .filter(.links)
        case ("filter", "retweets"), ("is", "retweet"): return .filter(.reposts)
        case ("filter", "replies"), ("is", "reply"): return .filter(.replies)
        case ("conversation", _), ("conversation_id", _):
            guard !value.isEmpty else {
                throw QueryError("“\(name):” needs the id of the post that began the conversation, like \(name):1850….")
            }
            return .conversation(value)
        case ("filter", _), ("has", _), ("is", _):
            throw QueryError(
                """
                “\(name):\(value)” is not a filter Smashtag knows: use filter:media, filter:links, filter:retweets \
                or filter:replies.
                """)
        default:
            throw QueryError(
                """
                The operator “\(name):” is not supported: use words, \"phrases\", #hashtags, @users, from:user, \
                OR, -, ( ), filter:media/links/retweets/replies and conversation:ID.
                """
            )
        }
    }

    /// `lang:` and `from:` are operators; `https://…` and `12:30` are not.
    private static func isOperatorName(_ name: Substring) -> Bool {
        // X's operators spell words with `_` (`conversation_id:`).
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") }
            && !["http", "https"].contains(name.lowercased())
    }

    /// Twitter's hashtag characters: letters, marks, digits and `_`, not only digits.
    private static func hashtag(_ tag: String, typed: String) throws(QueryError) -> String {
        guard !tag.isEmpty else { throw QueryError("“#” must be followed by a hashtag, like #swift.") }
        guard tag.unicodeScalars.allSatisfy(isHashtagScalar) else {
            throw QueryError("“\(typed)” is not a hashtag: a hashtag is letters, digits and _ only.")
        }
        guard !tag.allSatisfy(\.isNumber) else { throw QueryError("“\(typed)” is not a hashtag: it needs a letter.") }
        return tag
    }

    private static func isHashtagScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return scalar == "_" || properties.isAlphabetic || properties.numericType == .decimal
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            || scalar == "\u{200C}" || scalar == "\u{200D}"
    }

    /// A user name some network could have (`UserName`'s rules).
    private static func handle(_ name: String, typed: String) throws(QueryError) -> String {
        guard !name.isEmpty else { throw QueryError("“\(typed)” needs a user name after it, like \(typed)nasa.") }
        if let problem = UserName.problem(with: name) { throw QueryError("“\(typed)” is not a user name: \(problem)") }
        return name
    }
}
