import AppStore
import ArgumentParser
import Corpus
import Foundation
import LiveIndex
import Posts
import SmashtagApp

/// The live index's targets (issue 16): a file of Jetstream events replayed into the corpus at full speed while
/// searches run, memory sampled as it goes, and the disk each post takes.
struct BenchIngest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Live-index throughput: Jetstream events replayed into the corpus while searches run."
    )

    @Option(help: "Events in the generated file (when --file names none that exists).")
    var events = 1_000_000

    @Option(help: "A file of Jetstream events, one JSON object per line; generated there when missing.")
    var file: String?

    @Option(help: "Memory is sampled every this many events.")
    var sampleEvery = 100_000

    @OptionGroup var options: BenchOptions

    func run() async throws {
        let directory = try options.directory
        let path = file ?? directory.path + "/jetstream-events.jsonl"
        if !FileManager.default.fileExists(atPath: path) {
            let started = ContinuousClock.now
            try JetstreamEventFile(count: events).write(to: path)
            note(
                """
                Wrote \(grouped(events)) events to \(path) \
                in \(String(format: "%.1f", (ContinuousClock.now - started).seconds)) s.
                """
            )
        }
        // SQLite's corpus is made afresh; a PostgreSQL database is given empty.
        if try options.postgres == nil { try? FileManager.default.removeItem(atPath: directory.corpus) }
        let corpus = try await options.openCorpus()
        let result = try await replay(path, into: corpus)
        report(result)
    }

    private func replay(_ path: String, into corpus: any LiveIndexCorpus) async throws -> IngestBenchResult {
        let queue = IngestQueue(limit: 20_000)
        let samples = MemorySamples()
        let reader = Task { try await read(path, into: queue, samples: samples) }
        let searching = SearchLoad(corpus: corpus)
        let searches = Task { try await searching.run() }
        let started = ContinuousClock.now
        let total = try await JetstreamIngester(corpus: corpus).ingest(queue.events)
        let elapsed = ContinuousClock.now - started
        searches.cancel()
        let latencies = try await searches.value
        let lines = try await reader.value
        let bytes = try await corpus.bytesOnDisk()
        let stored = try await corpus.postCount()
        return IngestBenchResult(
            events: lines, posts: total.posts, deleted: total.deleted, skipped: total.skipped, seconds: elapsed.seconds,
            postsPerSecond: Double(total.posts) / elapsed.seconds, eventsPerSecond: Double(lines) / elapsed.seconds,
            searches: latencies.count, searchP50ms: latencies.percentile(0.5), searchP99ms: latencies.percentile(0.99),
            residentMB: samples.values, storedPosts: stored, corpusBytes: bytes,
            bytesPerPost: Double(bytes) / Double(max(stored, 1))
        )
    }

    /// Reads the file a line at a time into the queue, decoding as the live index does; how many lines.
    private func read(_ path: String, into queue: IngestQueue, samples: MemorySamples) async throws -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchFailure("Cannot read \(path).") }
        defer { handle.closeFile() }
        var lines = 0
        var pending: [UInt8] = []
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(contentsOf: chunk)
            var start = 0
            while let end = pending[start...].firstIndex(of: 10) {
                lines += 1
                let event = IngestEvent(message: Array(pending[start..<end]), where: "line \(lines)")
                await queue.put(event)
                if lines % sampleEvery == 0 { samples.take(at: lines) }
                start = end + 1
            }
            pending.removeFirst(start)
        }
        queue.finish()
        return lines
    }
}

/// Searches one after another while the corpus fills: a hashtag, a word, and both, newest first.
private struct SearchLoad {
    let corpus: any LiveIndexCorpus

    func run() async throws -> Latencies {
        let queries = try ["#tag1", "#tag7 OR #tag40", "word12", "word3 #tag2"].map { try SearchQuery(parsing: $0) }
        var times = Latencies()
        var index = 0
        while !Task.isCancelled {
            let query = queries[index % queries.count]
            do {
                try await times.measure { _ = try await corpus.search(query, .newest, count: 20) }
            } catch is CancellationError {
                break  // the ingest is over: a search cut short is not a result
            }
            index += 1
            try? await Task.sleep(for: .milliseconds(5))
        }
        return times
    }
}

/// Resident memory (from /proc/self/statm) by events read.
private final class MemorySamples: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [String: Double] = [:]

    func take(at events: Int) {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return }
        let megabytes = (pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576).rounded()
        lock.withLock { samples[String(events)] = megabytes }
    }

    var values: [String: Double] { lock.withLock { samples } }
}

private struct IngestBenchResult: Encodable {
    let events: Int
    let posts: Int
    let deleted: Int
    let skipped: Int
    let seconds: Double
    let postsPerSecond: Double
    let eventsPerSecond: Double
    let searches: Int
    let searchP50ms: Double
    let searchP99ms: Double
    /// Resident memory in MB after each sample's number of events.
    let residentMB: [String: Double]
    let storedPosts: Int
    let corpusBytes: Int64
    let bytesPerPost: Double
}

/// A file of events in Jetstream's shape, as the firehose sends them for `app.bsky.feed.post`: mostly creates (text
/// of a few words, hashtags as facets, some replies, images and languages), some deletes of earlier posts, identity
/// events; by 50,000 authors, the busiest posting most. Seeded, so every run replays the same file.
struct JetstreamEventFile {
    let count: Int
    private static let start: Int64 = 1_763_900_000_000_000

    func write(to path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { throw BenchFailure("Cannot write \(path).") }
        defer { handle.closeFile() }
        var random = SplitMix(seed: 16)
        var buffer = ""
        var rkeys: [(did: String, rkey: String)] = []
        for index in 0..<count {
            buffer += line(index, random: &random, created: &rkeys) + "\n"
            if buffer.utf8.count > 1 << 20 {
                handle.write(Data(buffer.utf8))
                buffer = ""
            }
        }
        handle.write(Data(buffer.utf8))
    }

    private func line(_ index: Int, random: inout SplitMix, created: inout [(did: String, rkey: String)]) -> String {
        let time = Self.start + Int64(index) * 400
        let roll = random.next(100)
        if roll < 5, !created.isEmpty {
            let post = created[random.next(created.count)]
            return
                #"""
                {"did":"\#(post.did)","time_us":\#(time),"kind":"commit","commit":{"rev":"r\#(index)",\#
                "operation":"delete","collection":"app.bsky.feed.post","rkey":"\#(post.rkey)"}}
                """#
        }
        let did = Self.did(random.next(random.next(2) == 0 ? 500 : 50_000))
        if roll == 5 {
            return
                #"""
                {"did":"\#(did)","time_us":\#(time),"kind":"identity","identity":{"did":"\#(did)",\#
                "handle":"user.example.com","seq":\#(index),"time":"2025-11-23T12:00:00.000Z"}}
                """#
        }
        let rkey = "3m\(String(index, radix: 32).leftPadded(to: 11))"
        if created.count < 200_000 {
            created.append((did, rkey))
        } else {
            created[random.next(created.count)] = (did, rkey)
        }
        return
            #"""
            {"did":"\#(did)","time_us":\#(time),"kind":"commit","commit":{"rev":"r\#(index)","operation":"create",\#
            "collection":"app.bsky.feed.post","rkey":"\#(rkey)","cid":"bafyrei\#(index)",\#
            "record":\#(record(index, did: did, random: &random))}}
            """#
    }

    private func record(_ index: Int, did: String, random: inout SplitMix) -> String {
        var text = (0..<(4 + random.next(20))).map { _ in "word\(random.next(random.next(2) == 0 ? 50 : 5_000))" }
            .joined(separator: " ")
        var facets: [String] = []
        for _ in 0..<random.next(3) {
            text += " "
            let start = text.utf8.count
            let tag = "tag\(random.next(random.next(2) == 0 ? 20 : 2_000))"
            text += "#" + tag
            facets.append(
                #"""
                {"index":{"byteStart":\#(start),"byteEnd":\#(text.utf8.count)},\#
                "features":[{"$type":"app.bsky.richtext.facet#tag","tag":"\#(tag)"}]}
                """#
            )
        }
        let seconds = index / 2_500
        let created = String(
            format: "2025-11-23T%02d:%02d:%02d.000Z", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
        var record =
            #"""
            {"$type":"app.bsky.feed.post","text":"\#(text)","createdAt":"\#(created)",\#
            "langs":["\#(["en", "ja", "pt", "de"][random.next(4)])"],"facets":[\#(facets.joined(separator: ","))]
            """#
        if random.next(5) == 0 {
            record +=
                #"""
                ,"embed":{"$type":"app.bsky.embed.images","images":[{"alt":"","image":{"$type":"blob",\#
                "ref":{"$link":"bafkreiimage\#(index)"},"mimeType":"image/jpeg","size":301234},\#
                "aspectRatio":{"width":1200,"height":900}}]}
                """#
        }
        if random.next(4) == 0 {
            let parent = "at://\(did)/app.bsky.feed.post/3m\(String(max(0, index - 7), radix: 32).leftPadded(to: 11))"
            record +=
                #"""
                ,"reply":{"root":{"uri":"\#(parent)","cid":"bafyreiparent"},"parent":{"uri":"\#(parent)",\#
                "cid":"bafyreiparent"}}
                """#
        }
        return record + "}"
    }

    /// `did:plc:` and 24 base32 letters, as PLC makes them.
    private static func did(_ number: Int) -> String {
        "did:plc:" + String(number, radix: 32).leftPadded(to: 24)
    }
}

/// The generator's randomness: SplitMix64, seeded.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(max(bound, 1)))
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "a", count: max(0, length - count)) + self
    }
}
