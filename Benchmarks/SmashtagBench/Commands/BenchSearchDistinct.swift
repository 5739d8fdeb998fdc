import ArgumentParser
import Corpus
import DemoCorpus
import Foundation
import GRDB
import Posts
import SmashtagApp

/// First-page latency of distinct searches (issue 39): many different queries of each shape, drawn from the corpus's
/// own posts so each has results, each searched once in random order — no answer comes from a cache that the same
/// query filled — and `older` paging deep into big terms against their first pages.
struct BenchSearchDistinct: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search-distinct",
        abstract: "First-page latency of distinct queries per shape, each searched once, and deep older paging.")

    @Option(help: "Queries per shape.")
    var perShape = 200

    @Option(help: "Posts per page.")
    var count = 20

    @Option(help: "Terms paged deep (the most frequent hashtags and words in the sample).")
    var deepTerms = 4

    @Option(help: "Older pages walked per deep term.")
    var deepPages = 500

    @Option(help: "The random seed for drawing queries.")
    var seed: UInt64 = 39

    @Option(help: "Only these shapes (comma-separated, as reported), e.g. 'word,phrase'.")
    var shapes: String?

    @Option(help: "The slowest queries of each shape to list, with their times.")
    var slowest = 0

    @OptionGroup var options: BenchOptions

    func run() async throws {
        let sample = try QuerySample.draw(from: try options.directory.corpus, perShape: perShape, seed: seed)
        let corpus = try await options.openCorpus()
        var generator = SeededRandom(seed: seed)
        var times: [String: Latencies] = [:]
        var empty: [String: Int] = [:]
        var timed: [String: [SlowQuery]] = [:]
        let wanted = shapes.map { Set($0.split(separator: ",").map(String.init)) }
        for (shape, query) in sample.queries.shuffled(using: &generator) where wanted?.contains(shape) ?? true {
            let parsed = try SearchQuery(parsing: query)
            var found = 0
            try await times[shape, default: Latencies()].measure {
                found = try await corpus.search(parsed, .newest, count: count).posts.count
            }
            if found == 0 { empty[shape, default: 0] += 1 }
            timed[shape, default: []].append(
                SlowQuery(shape: shape, query: query, ms: times[shape]?.lastMilliseconds ?? 0))
        }
        for shape in QuerySample.shapes {
            guard let latencies = times[shape] else { continue }
            report(
                ShapeResult(
                    shape: shape, example: sample.queries.first { $0.shape == shape }?.query ?? "",
                    queries: latencies.count, withoutResults: empty[shape] ?? 0, p50ms: latencies.percentile(0.5),
                    p99ms: latencies.percentile(0.99), maxms: latencies.percentile(1)))
        }
        for shape in QuerySample.shapes {
            for query in (timed[shape] ?? []).sorted(by: { $0.ms > $1.ms }).prefix(slowest) { report(query) }
        }
        for term in sample.deepTerms(deepTerms) { try await pageDeep(term, corpus) }
    }

    /// Pages 1–10 against the last ten of `deepPages`, each an `older` page from the last post of the one before.
    private func pageDeep(_ query: String, _ corpus: any PostCorpus) async throws {
        let parsed = try SearchQuery(parsing: query)
        var position = SearchRequest.Position.newest
        var top = Latencies()
        var deep = Latencies()
        var pages = 0
        while pages < deepPages {
            var page: CorpusPage?
            if pages < 10 {
                try await top.measure { page = try await corpus.search(parsed, position, count: count) }
            } else if pages >= deepPages - 10 {
                try await deep.measure { page = try await corpus.search(parsed, position, count: count) }
            } else {
                page = try await corpus.search(parsed, position, count: count)
            }
            pages += 1
            guard let page, page.hasMore, let last = page.posts.last else { break }
            position = .older(than: last.id, token: nil)
        }
        report(
            DeepResult(
                query: query, pages: pages, firstPagesP50ms: top.percentile(0.5), firstPagesP99ms: top.percentile(0.99),
                deepPagesP50ms: deep.count > 0 ? deep.percentile(0.5) : nil,
                deepPagesP99ms: deep.count > 0 ? deep.percentile(0.99) : nil))
    }
}

private struct ShapeResult: Encodable {
    let shape: String
    let example: String
    let queries: Int
    let withoutResults: Int
    let p50ms: Double
    let p99ms: Double
    let maxms: Double
}

/// One query's time, for the list of the slowest.
private struct SlowQuery: Encodable {
    let shape: String
    let query: String
    let ms: Double
}

private struct DeepResult: Encodable {
    let query: String
    let pages: Int
    let firstPagesP50ms: Double
    let firstPagesP99ms: Double
    let deepPagesP50ms: Double?
    let deepPagesP99ms: Double?
}

/// Queries drawn from random posts of the corpus: their hashtags, authors, words and adjacent words, so that each
/// query matches at least the post it came from (the combined shapes take their parts from one post).
private struct QuerySample {
    static let shapes = [
        "#tag", "from:", "word", "OR", "phrase", "#tag word -filter:retweets", "#tag #tag", "word filter:media",
        "(#tag OR #tag) -from:", "word word -from:",
    ]

    private(set) var queries: [(shape: String, query: String)] = []
    private var tagCounts: [String: Int] = [:]
    private var wordCounts: [String: Int] = [:]

    static func draw(from path: String, perShape: Int, seed: UInt64) throws -> QuerySample {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            var sample = QuerySample()
            var generator = SeededRandom(seed: seed)
            var seen = Set<String>()
            guard let range = try Row.fetchOne(db, sql: "SELECT min(id) AS low, max(id) AS high FROM post"),
                let low = range["low"] as Int64?, let high = range["high"] as Int64?
            else { throw BenchFailure("The corpus at \(path) is empty.") }
            var draws = 0
            while sample.queries.count < perShape * shapes.count, draws < perShape * 400 {
                draws += 1
                let key = Int64.random(in: low...high, using: &generator)
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT p.text, a.handle FROM post p JOIN author a ON a.id = p.authorID
                            WHERE p.id >= ? AND p.network = 0 ORDER BY p.id LIMIT 1
                            """, arguments: [key])
                else { continue }
                sample.add(SampledPost(text: row["text"], handle: row["handle"]), perShape, &seen, &generator)
            }
            return sample
        }
    }

    /// The most frequent hashtags and words of the sample, alternately: the biggest terms to page through.
    func deepTerms(_ count: Int) -> [String] {
        let tags = tagCounts.sorted { $0.value > $1.value }.map(\.key)
        let words = wordCounts.sorted { $0.value > $1.value }.map(\.key)
        return Array(zip(tags, words).flatMap { [$0, $1] }.prefix(count))
    }

    private mutating func add(
        _ post: SampledPost, _ perShape: Int, _ seen: inout Set<String>, _ generator: inout SeededRandom
    ) {
        for tag in post.tags { tagCounts[tag, default: 0] += 1 }
        for word in post.words { wordCounts[word, default: 0] += 1 }
        let tag = post.tags.randomElement(using: &generator)
        let word = post.words.randomElement(using: &generator)
        let otherTag = tagCounts.keys.filter { $0.lowercased() != tag?.lowercased() }.randomElement(using: &generator)
        let candidates: [(String, String?)] = [
            ("#tag", tag),
            ("from:", "from:" + post.handle),
            ("word", word),
            ("OR", tag.flatMap { tag in otherTag.map { "\(tag) OR \($0)" } }),
            ("phrase", post.adjacentWords.randomElement(using: &generator).map { "\"\($0) \($1)\"" }),
            ("#tag word -filter:retweets", tag.flatMap { tag in word.map { "\(tag) \($0) -filter:retweets" } }),
            ("#tag #tag", post.tags.count > 1 ? "\(post.tags[0]) \(post.tags[1])" : nil),
            ("word filter:media", word.map { "\($0) filter:media" }),
            ("(#tag OR #tag) -from:", tag.flatMap { tag in otherTag.map { "(\(tag) OR \($0)) -from:nasa" } }),
            ("word word -from:", post.words.count > 1 ? "\(post.words[0]) \(post.words.last!) -from:nasa" : nil),
        ]
        for case (let shape, let query?) in candidates
        where queries.count(where: { $0.shape == shape }) < perShape && seen.insert(query).inserted {
            queries.append((shape, query))
        }
    }
}

/// A post's parts that queries are made of.
private struct SampledPost {
    let tags: [String]
    let words: [String]
    let adjacentWords: [(String, String)]
    let handle: String

    init(text: String, handle: String) {
        self.handle = handle
        let tokens = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        tags = tokens.filter { $0.hasPrefix("#") && $0.count > 1 && $0.dropFirst().allSatisfy(\.isLetter) }
        // Plain words of letters only: no link, mention or punctuation, which the tokenizer would cut differently.
        let plain = tokens.map { $0.lowercased() }.map { $0.allSatisfy { $0.isASCII && $0.isLetter } ? $0 : nil }
        words = plain.compactMap { $0 }.filter { $0.count >= 3 }
        adjacentWords = zip(plain, plain.dropFirst()).compactMap { first, second in
            guard let first, let second else { return nil }
            return (first, second)
        }
    }
}
