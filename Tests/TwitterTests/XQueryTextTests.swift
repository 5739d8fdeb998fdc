import Testing

@testable import Twitter

/// The v1.1 filters Smashtag reads go to X API v2 in its own spelling; phrases and everything else as typed.
struct XQueryTextTests {
    @Test(arguments: [
        ("#swift filter:replies", "#swift is:reply"),
        ("#swift -filter:replies -filter:retweets", "#swift -is:reply -is:retweet"),
        ("(filter:media OR filter:links) from:nasa", "(has:media OR has:links) from:nasa"),
        ("FILTER:Images lang:en", "has:images lang:en"),
        (#""filter:replies is a phrase" filter:replies"#, #""filter:replies is a phrase" is:reply"#),
        ("is:reply has:media", "is:reply has:media"),
        ("conversation:1850000000000000001 -filter:retweets", "conversation_id:1850000000000000001 -is:retweet"),
    ])
    func filtersAreSpelledAsV2SpellsThem(typed: String, sent: String) {
        #expect(XQueryText.v2(typed) == sent)
    }
}
