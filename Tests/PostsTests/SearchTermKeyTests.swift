import Posts
import Testing

/// One rule for every term, whatever it is for (a search, a tracked term, Recents, a dataset, a feed).
struct SearchTermKeyTests {
    @Test func termsAreTheSameWhateverTheirCaseAndSpacing() throws {
        let term = try SearchTermKey("  #Stanford \t OR   @NASA ")
        #expect(term.shown == "#Stanford OR @NASA")
        #expect(term.key == "#stanford or @nasa")
    }

    @Test func aTermHasAtMostAThousandCharacters() throws {
        #expect(try SearchTermKey(String(repeating: "é", count: 1_000)).shown.count == 1_000)
        #expect(throws: QueryError.tooLong(1_001)) { try SearchTermKey(String(repeating: "a", count: 1_001)) }
        #expect(
            throws: QueryError("A search term has at most 1,000 characters; this one has 1,900,000.")
        ) { try SearchTermKey(String(repeating: "#x ", count: 633_333) + "#") }
    }

    /// Characters, as the stores count them: an emoji of several scalars counts each.
    @Test func theLimitCountsUnicodeScalars() throws {
        let family = "👨‍👩‍👧"  // five scalars, one character
        #expect(throws: QueryError.self) { try SearchTermKey(String(repeating: family, count: 201)) }
        #expect(try SearchTermKey(String(repeating: family, count: 200)).shown.unicodeScalars.count == 1_000)
    }

    @Test(arguments: ["\u{0}", "a\u{1}b", "#x\u{1B}[2J", "\u{7F}", "\u{9B}31m", "\u{7}"])
    func aTermCannotHoldControlCharacters(term: String) {
        #expect(throws: QueryError.self) { try SearchTermKey(term) }
    }

    @Test func theErrorSaysWhichControlCharacterAndWhere() {
        #expect(throws: QueryError("A search term cannot hold control characters: U+001B at character 3.")) {
            try SearchTermKey("#x\u{1B}[2J")
        }
    }

    @Test func spacesAndLineBreaksAreWhiteSpaceNotControls() throws {
        #expect(try SearchTermKey("#a\r\n#b\t#c\u{85}#d").shown == "#a #b #c #d")
    }

    @Test func nothingButSpacesIsNoTerm() {
        #expect(throws: QueryError.empty) { try SearchTermKey(" \t ") }
    }
}
