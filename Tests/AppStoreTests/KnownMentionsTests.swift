import Testing

@testable import AppStore

/// The mention ids a SQLite store remembers between writes (issue 13): only what it was told, and bounded.
struct KnownMentionsTests {
    @Test func answersOnlyTheKeysItWasTold() {
        let known = KnownMentions()
        known.remember(["#a": 1, "@b": 2])
        #expect(known.ids(of: ["#a", "#c", "@b"]) == ["#a": 1, "@b": 2])
        #expect(known.ids(of: []) == [:])
    }

    @Test func startsAgainRatherThanGrowPastItsLimit() {
        let known = KnownMentions()
        known.remember(Dictionary(uniqueKeysWithValues: (0..<KnownMentions.limit).map { ("#\($0)", Int64($0)) }))
        #expect(known.ids(of: ["#0"]) == ["#0": 0])
        known.remember(["#new": -1])
        #expect(known.ids(of: ["#0", "#new"]) == ["#new": -1])
    }
}
