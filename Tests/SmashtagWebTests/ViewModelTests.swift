import AppStore
import Foundation
import Posts
import SmashtagApp
import TestSupport
import Testing

@testable import SmashtagWeb

/// The view models' own formatting, against what it replaced.
@Suite struct ViewModelTests {
    /// Dates from 1900 to 2200, every few days at odd seconds, and the edges of days, months and leap years.
    static let dates: [Date] =
        stride(from: -2_208_988_800.0, to: 7_258_118_400, by: 317_017.3).map(Date.init(timeIntervalSince1970:))
        + [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 1_709_164_800, 4_107_542_399].map(
            Date.init(timeIntervalSince1970:))

    @Test func utcTimeWritesISO8601AsFoundationDoes() {
        for date in Self.dates {
            #expect(UTCTime(date).iso8601 == date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func utcTimeWritesTheMonthAndDayAsFoundationDoes() {
        var style = Date.FormatStyle(locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!).month(
            .abbreviated
        ).day()
        style.timeZone = TimeZone(identifier: "UTC")!
        for date in Self.dates {
            #expect(UTCTime(date).monthDay == date.formatted(style), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func utcTimeWritesRFC822AsHTTPDatesAreWrittenAndReadsThemBack() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for date in Self.dates where date.timeIntervalSince1970 >= 0 {
            let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            #expect(UTCTime(date).rfc822 == formatter.string(from: whole), "\(date.timeIntervalSince1970)")
            #expect(UTCTime.parseHTTPDate(UTCTime(date).rfc822) == whole)
        }
        #expect(UTCTime.parseHTTPDate("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }

    @Test func relativeDatesReadAsListsShowThem() {
        let now = Date(timeIntervalSince1970: 1_733_240_775)  // 2024-12-03 15:46:15 UTC
        let ages: [(TimeInterval, String)] = [
            (5, "now"), (60, "1m"), (3599, "59m"), (3600, "1h"), (86_399, "23h"), (86_400, "1d"),
            (6 * 86_400, "6d"), (7 * 86_400, "Nov 26"), (400 * 86_400, "Oct 30"),
        ]
        for (age, text) in ages {
            #expect(RelativeDate.format(now.addingTimeInterval(-age), now: now) == text, "\(age)")
        }
    }

    @Test(
        arguments: [
            (Tab.search, "/search?q=%23swift"), (.recents, "/recents/search?q=a%20b&back=%2Frecents"), (.search, nil),
        ] as [(Tab, String?)])
    func aRowsLinkIsTheSiteURLOfItsTweet(tab: Tab, back: String?) {
        for key in [
            PostKey(network: .twitter, id: "1"), PostKey(network: .mastodon, id: "1900000000000000001"),
            PostKey(network: .bluesky, id: "at://did:plc:x/app.bsky.feed.post/3k"),
        ] {
            #expect(PostLinks(tab: tab, back: back).url(key) == SiteURL.post(tab, key, back: back).path)
        }
    }
}

/// The JSON twins' search document against what `JSONEncoder` writes for the same members.
@Suite struct SearchDocumentTests {
    /// The document's members as `Codable` spells them: the oracle.
    private struct EncodedDocument: Encodable {
        let query: String
        let tweets: [EncodedPost]
        let newer: String?
        let older: String?
        let errors: [SearchDocument.SourceError]?
    }

    @Test func theSearchDocumentIsWhatJSONEncoderWrites() async throws {
        let site = try await WebFixture.site()
        for query in ["#" + WebFixture.hostileTag, site.defaultQuery] {
            let page = try await site.sessions.fetch(query, from: site.sources, at: .newest, count: 25)
            let failures = [
                SearchDocument.SourceError(
                    SourceFailure(source: "mastodon", title: "Mastodon", error: QueryError.empty))
            ]
            for (newer, older) in [("corpus:1", "corpus:2"), (nil, "corpus:2"), ("corpus:1", nil), (nil, nil)]
                as [(String?, String?)]
            {
                for errors in [[], failures] {
                    let expected = PublicJSON.text(
                        EncodedDocument(
                            query: query, tweets: page.posts.map(EncodedPost.init), newer: newer, older: older,
                            errors: errors.isEmpty ? nil : errors))
                    let document = SearchDocument(
                        query: query, posts: page.posts, newer: newer, older: older, errors: errors)
                    #expect(document.json() == expected)
                }
            }
        }
    }
}

/// A row's `<time datetime>` says the post's time to the minute, as much as the row shows: seconds cut, not rounded
/// (a post at 15:46:59.9 was written at 15:46).
struct RowTimeTests {
    @Test func aRowsTimeIsItsMinuteInISO8601() {
        #expect(PostRow.minuteTime(Date(timeIntervalSince1970: 1_733_240_775)) == "2024-12-03T15:46Z")
        #expect(PostRow.minuteTime(Date(timeIntervalSince1970: 1_733_240_760)) == "2024-12-03T15:46Z")
        #expect(PostRow.minuteTime(Date(timeIntervalSince1970: 1_733_240_819.9996)) == "2024-12-03T15:46Z")
        #expect(PostRow.minuteTime(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59Z")
    }
}
