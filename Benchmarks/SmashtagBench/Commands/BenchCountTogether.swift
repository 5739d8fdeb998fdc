import AppStore
import ArgumentParser
import Corpus
import DemoCorpus
import Foundation
import Posts
import SmashtagApp

/// Several writers counting overlapping pages of the same posts under one term at once: run in two processes
/// against one PostgreSQL, the counts must still equal a recount. The posts are made from their numbers,
/// so every process makes the same ones.
struct BenchCountTogether: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count-together",
        abstract: "Count overlapping pages of the same posts under one term with several concurrent writers."
    )

    @Option(help: "The search term.")
    var term = "together"

    @Option(help: "Concurrent writers in this process.")
    var writers = 4

    @Option(help: "Posts in all, numbered from 1.")
    var posts = 600

    @Option(help: "Posts per page.")
    var page = 60

    @Option(help: "Pages each writer counts, at places chosen from the seed, after its share of every page in order.")
    var pages = 20

    @Option(help: "Chooses the random pages.")
    var seed: UInt64 = 1

    @OptionGroup var options: BenchOptions

    func run() async throws {
        let started = ContinuousClock.now
        try await options.withStore(count)
        print(
            """
            counted \(writers * (pages + posts / page / writers)) pages \
            in \(String(format: "%.2f", (ContinuousClock.now - started).seconds)) s
            """
        )
    }

    /// Every writer's pages, at once.
    private func count(_ database: AppDatabase) async throws {
        let all = (1...posts).map(Self.post)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                let windows = windows(for: writer)
                group.addTask {
                    let sessions = SearchSessions(database: database)
                    for start in windows {
                        let page = Array(all[start..<min(start + page, all.count)].reversed())
                        _ = try await sessions.fetch(
                            term, from: SourceSet(only: FixedPosts(posts: page)), at: .newest, count: page.count)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The writer's share of the pages in order (together the writers cover every post), then random ones.
    private func windows(for writer: Int) -> [Int] {
        var random = SeededRandom(seed: seed &+ UInt64(writer))
        let ordered = stride(from: writer * page, to: posts, by: writers * page)
        return Array(ordered) + (0..<pages).map { _ in random.below(max(posts - page, 1)) }
    }

    /// Post `number`: two hashtags and a user from its number, at an hour of its own.
    static func post(_ number: Int) -> Post {
        let text = "#c\(number % 7) #d\(number % 11) @u\(number % 5)"
        var mentions: [Mention] = []
        var offset = 0
        for word in text.split(separator: " ") {
            mentions.append(
                Mention(
                    kind: word.hasPrefix("#") ? .hashtag : .user, keyword: String(word),
                    range: offset..<offset + word.count))
            offset += word.count + 1
        }
        return Post(
            id: String(1_000_000 + number), created: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 3600),
            author: Author(handle: "writer", name: "Writer"), text: text, mentions: mentions)
    }
}

/// A source that answers every request with the same posts.
struct FixedPosts: PostSource {
    let posts: [Post]

    func search(_ request: SearchRequest) async throws -> SearchPage {
        SearchPage(posts: posts, newer: request.newer(after: posts), older: nil)
    }
}
