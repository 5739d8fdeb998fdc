import Foundation
import Testing

@testable import Posts
@testable import Twitter

struct TwitterDateTests {
    @Test func readsTheClassicFormat() {
        #expect(TwitterDate.parse("Fri Jul 12 23:40:37 +0000 2019") == Date(timeIntervalSince1970: 1_562_974_837))
    }

    @Test func readsISO8601WithMillisecondsAndOffsets() {
        #expect(TwitterDate.parse("2021-04-08T19:34:16.000Z") == Date(timeIntervalSince1970: 1_617_910_456))
        #expect(TwitterDate.parse("2021-04-08T21:34:16+02:00") == Date(timeIntervalSince1970: 1_617_910_456))
        #expect(TwitterDate.parse("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
    }

    @Test(arguments: ["", "yesterday", "Fri Jul 32 23:40:37 +0000 2019", "2021-13-08T19:34:16Z", "2021-04-08T19:34:16"])
    func rejectsWhatItCannotRead(_ text: String) {
        #expect(TwitterDate.parse(text) == nil)
    }

    @Test func snowflakeIdsCarryTheirTime() throws {
        let date = try #require(TwitterDate.fromSnowflake("1380242611781386245"))
        #expect(abs(date.timeIntervalSince1970 - 1_617_910_456) < 1)
        #expect(TwitterDate.fromSnowflake("12345") == nil)
    }
}
