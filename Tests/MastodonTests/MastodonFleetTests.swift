import Foundation
import HTTPExchange
import Posts
import StubMastodon
import StubServer
import Synchronization
import Testing

@testable import Mastodon

/// Three servers asked as one (issue 53): a.example and b.example answer as Mastodon, c.example as GoToSocial (it
/// shows tag timelines only to signed-in users, and has the token). Each serves its own posts and some of the
/// others', under its own ids; every post is found once, with the servers that gave it.
struct MastodonFleetTests {
    /// A post of the shared world: written on `home` at `second`, served by the servers in `on`.
    struct WorldPost {
        let number: Int
        let home: Int
        let on: [Int]
        var author: String { "u\(number % 4)" }
    }

    static let domains = ["a.example", "b.example", "c.example"]

    /// 75 posts, one every ten seconds, each written on one of the three servers and served by its own and, for
    /// some, one or two of the others.
    static func world(_ numbers: ClosedRange<Int> = 1...75) -> [WorldPost] {
        numbers.map { number in
            let home = number % 3
            let on = (0..<3).filter { $0 == home || number % ($0 + 2) == 0 }
            return WorldPost(number: number, home: home, on: on)
        }
    }

    /// What each stub serves of the world: its posts under ids of its own (growing with time, unlike the others').
    static func serve(_ world: [WorldPost], on stubs: [StubMastodon]) {
        for (server, stub) in stubs.enumerated() {
            var statuses: [StubMastodon.Status] = []
            for post in world where post.on.contains(server) {
                let id = 1000 * (server + 1) + post.number * (server + 2)
                let origin =
                    post.home == server
                    ? nil
                    : StubMastodon.Origin(home: domains[post.home], uri: uri(post, stubs))
                statuses.append(
                    .init(id: id, tags: ["fedi"], author: post.author, origin: origin, second: post.number * 10))
            }
            stub.serve(statuses)
        }
    }

    /// The post's `uri`, as its own server writes it.
    static func uri(_ post: WorldPost, _ stubs: [StubMastodon]) -> String {
        let home = stubs[post.home]
        let id = 1000 * (post.home + 1) + post.number * (post.home + 2)
        return home.uri(of: .init(id: id, author: post.author))
    }

    static func fleet(_ ports: [Int], deadline: Duration = .seconds(60)) -> MastodonFleet {
        var policy = MastodonClient.Policy()
        policy.deadline = deadline
        return MastodonFleet(
            configurations: ports.enumerated().map { index, port in
                MastodonConfiguration(
                    instance: "http://127.0.0.1:\(port)", token: index == 2 ? BearerToken("c-token") : nil)
            }, policy: policy)
    }

    /// Three stubs, the third answering as GoToSocial.
    static func withThree<T: Sendable>(_ body: ([StubMastodon], [Int]) async throws -> T) async throws -> T {
        try await StubMastodon.run(domain: domains[0]) { a, portA in
            try await StubMastodon.run(domain: domains[1]) { b, portB in
                try await StubMastodon.run(domain: domains[2], flavor: .goToSocial) { c, portC in
                    try await body([a, b, c], [portA, portB, portC])
                }
            }
        }
    }

    /// Every page older than the last, from the newest, until there is none.
    static func walk(_ fleet: MastodonFleet, count: Int) async throws -> [SearchPage] {
        var pages = [try await fleet.search(SearchRequest(query: "#fedi", count: count))]
        while let older = pages.last?.older, pages.count < 50 { pages.append(try await fleet.search(older)) }
        return pages
    }

    @Test func everyPostOnceNewestFirstWithTheServersThatGaveIt() async throws {
        try await Self.withThree { stubs, ports in
            let world = Self.world()
            Self.serve(world, on: stubs)
            let fleet = Self.fleet(ports)
            let pages = try await Self.walk(fleet, count: 20)
            let posts = pages.flatMap(\.posts)
            #expect(pages.flatMap(\.problems).isEmpty, "\(pages.flatMap(\.problems))")
            let expected = world.sorted { $0.number > $1.number }
            #expect(posts.map(\.id) == expected.map { Self.uri($0, stubs) })
            #expect(posts.map { $0.seenOn.count } == expected.map(\.on.count))
            #expect(pages.dropLast().allSatisfy { $0.posts.count == 20 })
            for (post, source) in zip(posts, expected) {
                // One person whatever server reports them: `u1` on a.example is `u1@a.example` everywhere.
                #expect(post.author.handle == "\(source.author)@\(Self.domains[source.home])")
                #expect(post.url.hasPrefix("https://\(Self.domains[source.home])/@\(source.author)/"))
            }
            let names = fleet.serverNames
            #expect(Set(posts.flatMap(\.seenOn)) == Set(names))
        }
    }

    @Test func newerPostsComeOnceWhicheverServerHasThem() async throws {
        try await Self.withThree { stubs, ports in
            Self.serve(Self.world(1...40), on: stubs)
            let fleet = Self.fleet(ports)
            let first = try await fleet.search(SearchRequest(query: "#fedi", count: 20))
            Self.serve(Self.world(1...75), on: stubs)
            var newer: [Post] = []
            var request = first.newer
            for _ in 0..<10 {
                let page = try await fleet.search(request)
                guard !page.posts.isEmpty else { break }
                newer = page.posts + newer
                request = page.newer
            }
            let expected = Self.world(41...75).sorted { $0.number > $1.number }.map { Self.uri($0, stubs) }
            #expect(newer.map(\.id) == expected)
            #expect(Set(newer.map(\.id)).count == newer.count)
        }
    }

    @Test func aMergedPageCutsTheFleetWhereItsPostsStop() async throws {
        try await Self.withThree { stubs, ports in
            let world = Self.world()
            Self.serve(world, on: stubs)
            let fleet = Self.fleet(ports)
            // A second source with a post every 25 seconds takes part of each page: the fleet goes on from its own
            // last post shown, whatever server gave it.
            let others = (1...30).map { index in
                Post(
                    network: .twitter, id: "\(index)",
                    created: Date(timeIntervalSince1970: 1_785_000_000 + 25.0 * Double(index)),
                    author: Author(handle: "x", name: "x"), text: "#fedi")
            }
            let set = SourceSet([
                NamedSource(name: "mastodon", title: fleet.title, source: fleet),
                NamedSource(name: "corpus", title: "Corpus", source: FixedSource(posts: others)),
            ])
            var page = try await set.search(MergedRequest(query: "#fedi", count: 15))
            var seen = page.posts
            while let older = page.cursors.compactMapValues({ $0.older?.position }).nilIfEmpty {
                page = try await set.search(MergedRequest(query: "#fedi", count: 15, position: .older(older)))
                seen += page.posts
            }
            let fediverse = seen.filter { $0.network == .mastodon }.map(\.id)
            #expect(fediverse == world.sorted { $0.number > $1.number }.map { Self.uri($0, stubs) })
            #expect(seen.filter { $0.network == .twitter }.count == 30)
        }
    }

    @Test func aFailingServerIsNamedAndTheOthersGoOn() async throws {
        try await Self.withThree { stubs, ports in
            let world = Self.world()
            Self.serve(world, on: stubs)
            stubs[1].fail(with: .init(status: 503))
            let fleet = Self.fleet(ports)
            let first = try await fleet.search(SearchRequest(query: "#fedi", count: 20))
            #expect(first.problems == ["Mastodon (127.0.0.1:\(ports[1])) failed with status 503; try again later."])
            #expect(first.posts.allSatisfy { !$0.seenOn.contains("127.0.0.1:\(ports[1])") })
            stubs[1].fail(with: nil)
            var posts = first.posts
            var request = first.older
            while let older = request {
                let page = try await fleet.search(older)
                posts += page.posts
                request = page.older
            }
            // What b.example has from the round it missed comes once it answers again: no gap. Of those, the posts
            // the others have too were shown already, and can come a second time (the store counts them once);
            // what b.example alone has comes once.
            #expect(Set(posts.map(\.id)) == Set(world.map { Self.uri($0, stubs) }))
            let again = Dictionary(grouping: posts, by: \.id).filter { $0.value.count > 1 }.keys
            let shared = world.filter { $0.on.contains(1) && $0.on.count > 1 }.map { Self.uri($0, stubs) }
            #expect(Set(again).isSubset(of: Set(shared)))
            #expect(!again.isEmpty && again.count < 20)
        }
    }

    @Test func everyServerFailingIsEachOnesSentence() async throws {
        try await Self.withThree { stubs, ports in
            stubs[0].fail(with: .init(status: 200, body: "<html>hello</html>"))
            stubs[1].fail(with: .init(status: 301, headers: ["Location": "https://elsewhere.example/api/v1/x"]))
            stubs[2].fail(with: .init(status: 429, headers: ["Retry-After": "60"]))
            do {
                _ = try await Self.fleet(ports).search(SearchRequest(query: "#fedi"))
                Issue.record("no error")
            } catch {
                let text = "\(error)"
                #expect(text.contains("Mastodon (127.0.0.1:\(ports[0])) does not look like a Mastodon server"))
                #expect(
                    text.contains(
                        "Mastodon (127.0.0.1:\(ports[1])) sends its API on to elsewhere.example (a redirect)"))
                #expect(text.contains("Mastodon (127.0.0.1:\(ports[2])) rate-limited Smashtag"))
            }
        }
    }

    @Test func aSlowServerAndOneThatIsNotThereAreNamedAndTheOthersShown() async throws {
        try await StubMastodon.run(domain: "a.example") { a, portA in
            try await StubMastodon.run(domain: "b.example") { b, portB in
                try await StubServer.refusing { closed in
                    a.serve([.init(id: 1, tags: ["fedi"])])
                    b.serve([.init(id: 2, tags: ["fedi"])])
                    b.answerAfter(.seconds(120))
                    var policy = MastodonClient.Policy()
                    // Long enough for the answering server on a loaded machine; the slow one takes two minutes.
                    policy.deadline = .seconds(15)
                    let fleet = MastodonFleet(
                        configurations: [portA, portB, closed].map {
                            MastodonConfiguration(instance: "http://127.0.0.1:\($0)")
                        },
                        policy: policy)
                    let started = ContinuousClock.now
                    let page = try await fleet.search(SearchRequest(query: "#fedi"))
                    // Bounded by the deadline, not by the slow server's two minutes (loosely: a loaded machine).
                    #expect(ContinuousClock.now - started < .seconds(60), "the slow server holds it by its deadline")
                    #expect(page.posts.map(\.seenOn) == [["127.0.0.1:\(portA)"]])
                    #expect(
                        Set(page.problems) == [
                            "Mastodon (127.0.0.1:\(closed)): the connection was refused; check the address and that "
                                + "the service is running.",
                            "Mastodon (127.0.0.1:\(portB)) did not answer within 15 seconds; try again later.",
                        ])
                }
            }
        }
    }

    @Test func eachServerSaysTheVolumeItSaw() async throws {
        try await Self.withThree { stubs, ports in
            for (index, stub) in stubs.enumerated() {
                stub.serveHistory(of: "fedi", [.init(day: 1_785_024_000, uses: 10 * (index + 1), accounts: index + 1)])
            }
            let fleet = Self.fleet(ports)
            let report = await VolumeReport.ask(
                "#fedi", of: SourceSet([NamedSource(name: "mastodon", title: fleet.title, source: fleet)]),
                naming: false)
            #expect(report.answers.map(\.title) == ports.map { "Mastodon (127.0.0.1:\($0))" })
            #expect(report.answers.map(\.volume.posts) == [10, 20, 30])
            #expect(report.answers.allSatisfy { $0.source == "mastodon" } && report.failures.isEmpty)
        }
    }

    @Test func aServerThatHidesTagTimelinesFromVisitorsIsNamed() async throws {
        try await StubMastodon.run(domain: "a.example") { a, portA in
            try await StubMastodon.run(domain: "c.example", flavor: .goToSocial) { c, portC in
                a.serve([.init(id: 1, tags: ["fedi"])])
                c.serve([.init(id: 2, tags: ["fedi"])])
                var policy = MastodonClient.Policy()
                policy.deadline = .seconds(60)
                let fleet = MastodonFleet(
                    configurations: [
                        MastodonConfiguration(instance: "http://127.0.0.1:\(portA)"),
                        MastodonConfiguration(instance: "http://127.0.0.1:\(portC)"),
                    ], policy: policy)
                let page = try await fleet.search(SearchRequest(query: "#fedi"))
                #expect(page.posts.count == 1)
                #expect(page.problems.first?.hasPrefix("Mastodon (127.0.0.1:\(portC)) hides hashtag timelines") == true)
            }
        }
    }

    @Test func aURIClaimedByAnotherAuthorKeepsItsOwnServersCopy() async throws {
        try await Self.withThree { stubs, ports in
            let uri = "https://a.example/users/alice/statuses/7"
            stubs[0].serve([.init(id: 7, tags: ["fedi"], author: "alice")])
            stubs[1].serve([
                .init(id: 9, tags: ["fedi"], author: "mallory", origin: .init(home: "b.example", uri: uri)),
                .init(id: 8, tags: ["fedi"], author: "bob"),
            ])
            stubs[2].serve([])
            let page = try await Self.fleet(ports).search(SearchRequest(query: "#fedi"))
            #expect(page.posts.map(\.author.handle) == ["bob@b.example", "alice@a.example"])
            #expect(
                page.problems == [
                    "127.0.0.1:\(ports[1]) gave a post whose ActivityPub id (\(uri)) belongs to another author; "
                        + "its copy is left out."
                ])
        }
    }

    @Test func aPersonIsTheSameWhicheverFormNamesThem() async throws {
        try await Self.withThree { stubs, ports in
            Self.serve(Self.world(1...12), on: stubs)
            let fleet = Self.fleet(ports)
            let page = try await fleet.search(SearchRequest(query: "from:u1@b.example"))
            // b.example knows u1 as `u1`; the others know no such account, which is not a failure.
            #expect(page.problems.isEmpty)
            #expect(!page.posts.isEmpty && page.posts.allSatisfy { $0.author.handle == "u1@b.example" })
        }
    }

    @Test func aThreadAndARecheckAskTheServerThatGaveThePost() async throws {
        try await Self.withThree { stubs, ports in
            stubs[0].serve([
                .init(id: 10, tags: ["fedi"], author: "alice"), .init(id: 11, author: "bob", replyingTo: 10),
            ])
            stubs[1].serve([])
            stubs[2].serve([])
            let fleet = Self.fleet(ports)
            let page = try await fleet.search(SearchRequest(query: "#fedi"))
            let root = try #require(page.posts.first)
            let thread = try #require(try await fleet.thread(of: root.key, after: nil, limits: ThreadLimits()))
            #expect(thread.post.id == "https://a.example/users/alice/statuses/10")
            #expect(thread.replies.first?.item.post?.inReplyToID == root.id)
            #expect(thread.replies.first?.item.post?.id == "https://a.example/users/bob/statuses/11")
            #expect(try await fleet.gone(among: [root.id, "https://nowhere.example/x/1"]).isEmpty)
            stubs[0].serve([])
            #expect(try await fleet.gone(among: [root.id]) == [root.id])
        }
    }

    /// A place saved before the servers were asked as one (a single server's id): a newer walk starts again from
    /// every server's newest posts; an older one has nothing to show, and says why.
    @Test func aPositionFromBeforeTheFleetStartsAgainOrSaysWhy() async throws {
        try await Self.withThree { stubs, ports in
            Self.serve(Self.world(1...30), on: stubs)
            let fleet = Self.fleet(ports)
            let newer = try await fleet.search(SearchRequest(query: "#fedi", count: 10).at(.newer(than: "12345")))
            #expect(newer.posts.count == 10 && newer.problems.isEmpty)
            let older = try await fleet.search(SearchRequest(query: "#fedi").at(.older(than: "12345", token: nil)))
            #expect(older.posts.isEmpty && older.older == nil)
            #expect(older.problems == [MastodonFleet.foreignPosition])
        }
    }

    @Test func thePositionWordSurvivesItsTrip() throws {
        let position = FleetPosition(
            places: ["a.example": .at("123"), "b.example:8080": .exhausted, "c.example": .at("01H000")],
            boundary: FleetOrder(createdMilliseconds: 1_785_000_010_000, id: "https://a.example/users/a/statuses/1"))
        let word = position.encoded
        #expect(word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(FleetPosition(decoding: word) == position)
        #expect(FleetPosition(decoding: "f1%%%") == nil)
        #expect(FleetPosition(decoding: "12345") == nil)
    }

    @Test func anInstanceListWithABadNameIsRefused() throws {
        #expect(throws: InstanceListError.badName("mastodon.social/@alice")) {
            try MastodonConfiguration.fleet(environment: [
                "SMASHTAG_MASTODON_INSTANCES": "fosstodon.org,mastodon.social/@alice"
            ])
        }
        #expect(throws: InstanceListError.empty) {
            try MastodonConfiguration.fleet(environment: ["SMASHTAG_MASTODON_INSTANCES": " , "])
        }
        let servers = try #require(
            try MastodonConfiguration.fleet(environment: [
                "SMASHTAG_MASTODON_INSTANCES": "mastodon.social, fosstodon.org,http://127.0.0.1:9000,Fosstodon.org",
                "SMASHTAG_MASTODON_INSTANCE": "fosstodon.org", "SMASHTAG_MASTODON_TOKEN": "secret",
            ]))
        #expect(servers.map(\.serverName) == ["mastodon.social", "fosstodon.org", "127.0.0.1:9000"])
        #expect(servers.map { $0.token != nil } == [false, true, false])
        #expect(
            InstanceListError.badName("x y").description
                == "SMASHTAG_MASTODON_INSTANCES names “x y”, which is not a server: write host names such as "
                + "mastodon.social,fosstodon.org, separated by commas.")
    }
}

/// A source with fixed posts, paged by time as the corpus pages.
private struct FixedSource: PostSource {
    let posts: [Post]

    func search(_ request: SearchRequest) async throws -> SearchPage {
        let sorted = posts.sorted { $0.created > $1.created }
        let after: [Post]
        switch request.position {
        case .newest: after = sorted
        case .older(let id, _):
            let time = sorted.first { $0.id == id }?.created ?? .distantFuture
            after = sorted.filter { $0.created < time }
        case .newer(let id):
            let time = sorted.first { $0.id == id }?.created ?? .distantPast
            after = sorted.filter { $0.created > time }.suffix(request.count)
        }
        let page = Array(after.prefix(request.count))
        return SearchPage(
            posts: page, newer: request.newer(after: page),
            older: request.older(after: page, hasMore: after.count > page.count))
    }
}

extension Dictionary {
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
