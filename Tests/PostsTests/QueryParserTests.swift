import Testing

@testable import Posts

struct QueryParserTests {
    private func parse(_ text: String) throws -> SearchQuery { try SearchQuery(parsing: text) }
    private func word(_ word: String) -> SearchQuery { .term(.word(word)) }

    @Test func termsOfEveryKind() throws {
        #expect(try parse("swift") == word("swift"))
        #expect(try parse("\"exact  phrase\"") == .term(.phrase("exact phrase")))
        #expect(try parse("“curly quotes”") == .term(.phrase("curly quotes")))
        #expect(try parse("#Stanford") == .term(.hashtag("Stanford")))
        #expect(try parse("#東京") == .term(.hashtag("東京")))
        #expect(try parse("@NASA") == .term(.mention("NASA")))
        #expect(try parse("from:nasa") == .term(.from("nasa")))
        #expect(try parse("from:@nasa") == .term(.from("nasa")))
        #expect(try parse("@alice@example.social") == .term(.mention("alice@example.social")))
        #expect(try parse("from:alice@example.social") == .term(.from("alice@example.social")))
        #expect(try parse("from:alice.bsky.social") == .term(.from("alice.bsky.social")))
        // Mastodon local names have up to 30 characters: one X could not have is still a user name.
        #expect(try parse("from:WrongSopranosFacts") == .term(.from("WrongSopranosFacts")))
        #expect(try parse("@a23456789012345678901234567890") == .term(.mention("a23456789012345678901234567890")))
        #expect(throws: QueryError.self) { try parse("@a234567890123456789012345678901") }
        #expect(throws: QueryError.self) { try parse("@alice@") }
        #expect(throws: QueryError.self) { try parse("from:alice@-bad.example") }
        #expect(try parse("filter:media") == .term(.filter(.media)))
        #expect(try parse("has:links") == .term(.filter(.links)))
        #expect(try parse("filter:replies") == .term(.filter(.replies)) && parse("is:reply") == parse("filter:replies"))
        #expect(try parse("conversation:1850000000000000001") == .term(.conversation("1850000000000000001")))
        #expect(try parse("conversation_id:18") == .term(.conversation("18")))
        #expect(try parse("#swift conversation:18").namesConversation)
        #expect(throws: QueryError.self) { try parse("conversation:") }
        #expect(try parse("https://swift.org") == word("https://swift.org"))
    }

    @Test func sideBySideBindsTighterThanOr() throws {
        #expect(try parse("a b OR c") == .any([.all([word("a"), word("b")]), word("c")]))
        #expect(try parse("a (b OR c)") == .all([word("a"), .any([word("b"), word("c")])]))
        #expect(try parse("swift or rust") == .all([word("swift"), word("or"), word("rust")]))
    }

    @Test func exclusions() throws {
        #expect(
            try parse("#swift -filter:retweets")
                == .all([.term(.hashtag("swift")), .excluding(.term(.filter(.reposts)))]))
        #expect(try parse("a -(b OR c)") == .all([word("a"), .excluding(.any([word("b"), word("c")]))]))
        #expect(try parse("well-known") == word("well-known"))
    }

    @Test(arguments: [
        ("", "Type something to search for."),
        ("   ", "Type something to search for."),
        ("-swift", "A search needs something to look for, not only exclusions: add a term without a “-”."),
        ("a OR", "“OR” at character 3 needs something to search for after it."),
        ("OR a", "“OR” at character 1 needs something to search for before it."),
        ("a OR -b", "Each side of “OR” needs something to look for, not only exclusions."),
        ("(a OR b", "The “(” at character 1 is never closed with “)”."),
        ("a)", "There is a “)” at character 2 without a “(” before it."),
        (")", "There is a “)” at character 1 without a “(” before it."),
        ("#swift ) OR a", "There is a “)” at character 8 without a “(” before it."),
        ("(a OR )", "“OR” at character 4 needs something to search for after it."),
        ("a (b OR c) -", "“-” at character 12 must be followed by what to exclude, with no space: -word."),
        ("a -)", "“-” at character 3 must be followed by what to exclude, with no space: -word."),
        ("()", "The parentheses “()” at character 1 are empty."),
        ("swift (", "The “(” at character 7 is never closed with “)”."),
        ("\"open", "A quoted phrase is missing its closing quote (\")."),
        ("\"\"", "The quotes \"\" are empty: put the exact phrase to find between them."),
        ("a - b", "“-” at character 3 must be followed by what to exclude, with no space: -word."),
        ("#", "“#” must be followed by a hashtag, like #swift."),
        ("#foo!", "“#foo!” is not a hashtag: a hashtag is letters, digits and _ only."),
        ("#2024", "“#2024” is not a hashtag: it needs a letter."),
        ("@", "“@” needs a user name after it, like @nasa."),
        ("from:", "“from:” needs a user name after it, like from:nasa."),
        (
            "@this_name_is_far_too_long_for_x_or_mastodon",
            """
            “@this_name_is_far_too_long_for_x_or_mastodon” is not a user name: it has 43 characters, and X names \
            have at most 15, Mastodon names at most 30.
            """
        ),
        (
            "from:no-dash",
            """
            “from:no-dash” is not a user name: X and Mastodon names have letters, digits and _ only (X up to 15, \
            Mastodon up to 30), and a Bluesky handle is a domain name like alice.bsky.social.
            """
        ),
        (
            "@bad..handle",
            """
            “@bad..handle” is not a user name: a Bluesky handle is a domain name (labels of letters, digits and \
            inner - between dots, like alice.bsky.social), and X and Mastodon names have letters, digits and _ \
            only.
            """
        ),
        (
            "from:.alice@example.social",
            """
            “from:.alice@example.social” is not a user name: a Mastodon address starts with a name of letters, \
            digits and _ (with . or - inside), like alice@example.social.
            """
        ),
        (
            "@alice@localhost",
            """
            “@alice@localhost” is not a user name: a Mastodon address ends with its server's domain name, like \
            alice@example.social.
            """
        ),
        (
            "@a@b@c.social",
            """
            “@a@b@c.social” is not a user name: a Mastodon address has one @ between the name and the server, like \
            alice@example.social.
            """
        ),
        (
            "filter:videos",
            """
            “filter:videos” is not a filter Smashtag knows: use filter:media, filter:links, filter:retweets or \
            filter:replies.
            """
        ),
        (
            "lang:en swift",
            """
            The operator “lang:” is not supported: use words, \"phrases\", #hashtags, @users, from:user, OR, -, ( \
            ), filter:media/links/retweets/replies and conversation:ID.
            """
        ),
    ])
    func malformedQueriesSayWhatIsWrongInOneSentence(query: String, message: String) {
        #expect(throws: QueryError(message)) { try SearchQuery(parsing: query) }
    }
}
