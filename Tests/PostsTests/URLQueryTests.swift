import Testing

@testable import Posts

/// Percent-encoding for query values and path segments: RFC 3986's unreserved characters as they are, every other
/// byte of the UTF-8 as `%XX`.
struct URLQueryTests {
    @Test func unreservedTextComesBackAsItIs() {
        #expect(URLQuery.encode("Swift-6.3_beta~1") == "Swift-6.3_beta~1")
        #expect(URLQuery.encode("2124722331275231232") == "2124722331275231232")
        #expect(URLQuery.encode("") == "")
    }

    @Test func everyOtherByteIsEncodedInUpperCaseHex() {
        #expect(URLQuery.encode("#swift OR @Ada") == "%23swift%20OR%20%40Ada")
        #expect(URLQuery.encode("a+b=c&d\"'<>/") == "a%2Bb%3Dc%26d%22%27%3C%3E%2F")
        #expect(
            URLQuery.encode("at://did:plc:x/app.bsky.feed.post/1")
                == "at%3A%2F%2Fdid%3Aplc%3Ax%2Fapp.bsky.feed.post%2F1")
    }

    @Test func nonASCIIIsEncodedByteByByteOfItsUTF8() {
        #expect(URLQuery.encode("é") == "%C3%A9")
        #expect(URLQuery.encode("#東京") == "%23%E6%9D%B1%E4%BA%AC")
        #expect(URLQuery.encode("🇯🇵") == "%F0%9F%87%AF%F0%9F%87%B5")
    }
}
