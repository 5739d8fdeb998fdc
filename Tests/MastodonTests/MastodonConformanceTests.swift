import FixtureFolders
import Testing

@testable import Mastodon
@testable import Posts
@testable import WireJSON

/// Every status under ../shared/fixtures/mastodon (recorded responses and the documentation's examples): each tag in
/// `tags[]` and each account in `mentions[]` is a mention, and every mention's keyword is its slice of the text.
@Suite(.enabled(if: MastodonFixtures.isPresent, "../shared/fixtures/mastodon is absent"))
struct MastodonConformanceTests {
    @Test func everyStatusReadsExactly() throws {
        var checked = 0
        for file in MastodonFixtures.files {
            for status in try MastodonFixtures.statuses(in: file) {
                try check(status, in: file)
                checked += 1
            }
        }
        #expect(checked >= 10, "statuses found: \(checked)")
    }

    /// Issue 51: each recorded author's `indexable` decides whether their post may be kept; a boost is withheld when
    /// either the booster or the boosted author has not opted in.
    @Test func anAuthorWhoHasNotOptedInToSearchIsMarkedOnTheirPosts() throws {
        var seen: [Bool: Int] = [:]
        for file in MastodonFixtures.files {
            for status in try MastodonFixtures.statuses(in: file) {
                guard let post = try? StatusDecoder.post(from: status) else { continue }
                let accounts = [status["account"], status["reblog"]?["account"]].compactMap { $0 }
                let optedOut = accounts.contains { account in
                    if case .bool(false)? = account["indexable"] { true } else { false }
                }
                #expect(post.notIndexable == optedOut, "\(file) status \(post.id)")
                seen[optedOut, default: 0] += 1
            }
        }
        guard MastodonFixtures.isPresent else { return }
        #expect(seen[true, default: 0] > 0 && seen[false, default: 0] > 0, "both kinds recorded: \(seen)")
    }

    private func check(_ status: JSONValue, in file: String) throws {
        let name =
            "\(file.split(separator: "/").suffix(2).joined(separator: "/")) status \(status["id"]?.string ?? "?")"
        let (text, mentions) = try read(status)
        let scalars = Array(text.unicodeScalars)
        for mention in mentions {
            try #require(mention.range.upperBound <= scalars.count, "\(name): \(mention.keyword) past the end")
            #expect(String(String.UnicodeScalarView(scalars[mention.range])) == mention.keyword, "\(name)")
        }
        #expect(
            zip(mentions, mentions.dropFirst()).allSatisfy { $0.range.upperBound <= $1.range.lowerBound }, "\(name)")
        for tag in status["tags"]?.array ?? [] {
            let keyword = "#" + (tag["name"]?.string ?? "").lowercased()
            #expect(
                mentions.contains { $0.kind == .hashtag && $0.keyword.lowercased() == keyword }, "\(name): \(keyword)")
        }
        for account in status["mentions"]?.array ?? [] {
            let address =
                "@"
                + MentionedAccounts.fullAddress(
                    acct: account["acct"]?.string ?? "", profileURL: account["url"]?.string ?? "")
            #expect(mentions.contains { $0.kind == .user && $0.keyword == address }, "\(name): \(address)")
        }
    }

    /// A whole status decodes into a post; the documentation's partial examples (no account) give their content.
    private func read(_ status: JSONValue) throws -> (String, [Mention]) {
        if status["account"]?.object != nil, status["reblog"]?.object == nil {
            let post = try StatusDecoder.post(from: status)
            #expect(post.network == .mastodon && !post.url.isEmpty)
            return (post.text, post.mentions)
        }
        let content = StatusContent(
            html: status["content"]?.string ?? "", accounts: MentionedAccounts(status["mentions"]?.array ?? []))
        return (content.text, content.mentions)
    }
}

enum MastodonFixtures {
    static let folder = FixtureFolder("mastodon")

    static var isPresent: Bool { folder.isPresent }

    static var files: [String] { folder.files() }

    /// Every object in the file with an HTML `content`: statuses wherever they sit (a page, a search result, a
    /// boost's `reblog`, a quote).
    static func statuses(in file: String) throws -> [JSONValue] {
        try FixtureFolder.objects(in: file) { object in
            if case .string? = object["content"], object["id"] != nil { return true }
            return false
        }
    }
}
