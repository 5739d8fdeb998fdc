import AppStore
import Corpus
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Posts
import SmashtagApp
import Team
import TestSupport
import Testing

@testable import SmashtagWeb

/// A Bluesky author who labelled their profile `!no-unauthenticated` asks that only people signed in see their
/// posts: on a public Smashtag a visitor's search, its JSON twin, its feed, the Images grid and the post's own pages
/// leave them out and say so; a person signed in sees them as any other.
struct SignInOnlyTests {
    static let tag = "consenttest"
    static let privateID = "at://did:plc:private/app.bsky.feed.post/3private"
    static let openID = "at://did:plc:open/app.bsky.feed.post/3open"

    static var posts: [Post] {
        let created = Date(timeIntervalSince1970: 1_780_000_000)
        func post(
            _ id: String, _ handle: String, _ words: String, signedInOnly: Bool, after: Double,
            replyingTo: String? = nil
        ) -> Post {
            let text = "\(words) #\(tag)"
            return Post(
                network: .bluesky, id: id, created: created.addingTimeInterval(after),
                author: Author(handle: handle, name: handle), text: text, mentions: TestPosts.mentions(in: text),
                media: [MediaItem(url: "/demo/images/1-0-400x300.svg", aspectRatio: 4.0 / 3)], inReplyToID: replyingTo,
                signedInOnly: signedInOnly)
        }
        return [
            post(
                privateID, "private.example.com", "only for the signed in", signedInOnly: true, after: 60,
                replyingTo: openID),
            post(openID, "open.example.com", "for everyone", signedInOnly: false, after: 0),
        ]
    }

    /// A public Smashtag with one viewer, its database, and the viewer's sign-in cookie.
    static func publicApp() async throws -> (some ApplicationProtocol, AppDatabase, HTTPFields) {
        let directory = try await WebFixture.dataDirectory()
        _ = try await SQLiteCorpus.open(at: DataDirectory(path: directory).corpus).add(posts)
        var arguments = TestArguments(dataDirectory: directory)
        arguments.isPublic = true
        let site = try await Site.open(arguments, logger: WebFixture.quietLogger)
        let people = People(database: site.database)
        let person = try await people.add("vera", role: .viewer, passwordHash: "unused")
        let session = Secrets.sessionID()
        try await people.startSignIn(idHash: Secrets.hash(session), person: person, lasting: .seconds(3600))
        return (
            Application(router: try buildRouter(site), logger: WebFixture.quietLogger), site.database,
            [.cookie: "\(SignInCookie.name)=\(session)"]
        )
    }

    @Test func aVisitorIsNeverShownThePostsOfAnAuthorWhoAsksForSignIn() async throws {
        let (app, _, viewer) = try await Self.publicApp()
        try await app.test(.router) { client in
            let search = "/search?q=%23\(Self.tag)"
            let signedIn = try await client.execute(uri: search, method: .get, headers: viewer)
            #expect(signedIn.text.contains("only for the signed in") && signedIn.text.contains("for everyone"))
            #expect(!signedIn.text.contains("not shown"))

            let visitor = try await client.execute(uri: search, method: .get)
            #expect(visitor.status == .ok && visitor.text.contains("for everyone"))
            #expect(!visitor.text.contains("only for the signed in") && !visitor.text.contains("private.example.com"))
            #expect(visitor.text.contains("1 post is not shown: their authors show their posts only to people who"))
            #expect(visitor.text.contains("href=\"/signin?next="))

            let api = try await client.execute(uri: "/api/search?q=%23\(Self.tag)", method: .get)
            #expect(api.status == .ok && api.text.contains(Self.openID))
            #expect(!api.text.contains("only for the signed in") && !api.text.contains("private.example.com"))
            let apiSignedIn = try await client.execute(
                uri: "/api/search?q=%23\(Self.tag)", method: .get, headers: viewer)
            #expect(apiSignedIn.text.contains(Self.privateID) && apiSignedIn.text.contains("\"signedInOnly\":true"))

            let feed = try await client.execute(uri: "/search/feed?q=%23\(Self.tag)", method: .get)
            #expect(feed.text.contains("for everyone") && !feed.text.contains("only for the signed in"))

            // The viewer's search stored both posts: their pages answer the viewer, and refuse the visitor.
            let key = Self.privateID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let page = try await client.execute(uri: "/search/posts/bluesky/\(key)", method: .get, headers: viewer)
            #expect(page.status == .ok && page.text.contains("@private.example.com"))
            let refused = try await client.execute(uri: "/search/posts/bluesky/\(key)", method: .get)
            #expect(refused.status == .forbidden && !refused.text.contains("private.example.com"))
            #expect(refused.text.contains("shows their posts only to people who are signed in"))
            let apiPost = try await client.execute(uri: "/api/posts/bluesky/\(key)", method: .get)
            #expect(apiPost.status == .forbidden && !apiPost.text.contains("only for the signed in"))
            let one = try await client.execute(
                uri: "/search/search?q=%23\(Self.tag)&only=bluesky:\(key)", method: .get)
            #expect(one.status == .forbidden && !one.text.contains("only for the signed in"))

            let newest = Self.posts[0].created.millisecondsSince1970
            let images = try await client.execute(
                uri: "/search/images?q=%23\(Self.tag)&newest=\(newest)&oldest=\(newest - 60_000)", method: .get)
            #expect(images.text.contains("did:plc:open") && !images.text.contains("did:plc:private"))
        }
    }

    /// The private post answers the open one: a visitor's thread of the open post says a reply is there and not
    /// whose; the private post's own thread is refused; a viewer sees both.
    @Test func aVisitorsThreadHasARowInThePlaceOfAPostForPeopleSignedIn() async throws {
        let (app, _, viewer) = try await Self.publicApp()
        try await app.test(.router) { client in
            let open = Self.openID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let visitor = try await client.execute(uri: "/search/thread/bluesky/\(open)", method: .get)
            #expect(visitor.status == .ok && visitor.text.contains("for everyone"))
            #expect(visitor.text.contains("A post its author shows only to people who are signed in."))
            #expect(!visitor.text.contains("only for the signed in") && !visitor.text.contains("private.example.com"))
            let api = try await client.execute(uri: "/api/threads/bluesky/\(open)", method: .get)
            #expect(api.status == .ok && !api.text.contains("private.example.com"))
            let signedIn = try await client.execute(
                uri: "/search/thread/bluesky/\(open)", method: .get, headers: viewer)
            #expect(signedIn.text.contains("only for the signed in"))

            let hidden = Self.privateID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let refused = try await client.execute(uri: "/search/thread/bluesky/\(hidden)", method: .get)
            #expect(refused.status == .forbidden && !refused.text.contains("only for the signed in"))
            let shown = try await client.execute(uri: "/search/thread/bluesky/\(hidden)", method: .get, headers: viewer)
            #expect(shown.status == .ok && shown.text.contains("for everyone"), "its parent above it")
        }
    }

    /// `smashtag consent off bluesky-signed-in-only`: visitors are shown such posts too, at once; on again, not.
    @Test func theRuleTurnedOffShowsVisitorsThePostsAndOnAgainHidesThem() async throws {
        let (app, database, _) = try await Self.publicApp()
        try await app.test(.router) { client in
            let search = "/search?q=%23\(Self.tag)"
            try await database.setConsentRule(.blueskySignedInOnly, on: false)
            let shown = try await client.execute(uri: search, method: .get)
            #expect(shown.text.contains("only for the signed in") && !shown.text.contains("not shown"))
            try await database.setConsentRule(.blueskySignedInOnly, on: true)
            let hidden = try await client.execute(uri: search, method: .get)
            #expect(!hidden.text.contains("only for the signed in") && hidden.text.contains("1 post is not shown"))
        }
    }
}
