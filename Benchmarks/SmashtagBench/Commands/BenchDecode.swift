import ArgumentParser
import Corpus
import Foundation
import Posts
import SmashtagApp
import Twitter

/// Decoding throughput: read and decode every tweet of the files, several passes, median pass reported.
struct BenchDecode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode", abstract: "Decoding throughput in tweets/s and MB/s.")

    @Argument(help: "Post files, e.g. twarc2 JSON Lines (Benchmarks/decode/make_corpus.sh makes one).")
    var files: [String]

    @Option(help: "Passes over the files; the median is reported.")
    var `repeat` = 5

    func run() throws {
        var passes: [Duration] = []
        var tweets = 0
        var bytes = 0
        for _ in 0..<max(1, self.repeat) {
            let clock = ContinuousClock()
            var counted = (tweets: 0, bytes: 0)
            passes.append(try clock.measure { counted = try decodeAll() })
            (tweets, bytes) = counted
        }
        let seconds = passes.sorted()[passes.count / 2].seconds
        let result = DecodeBenchResult(
            impl: "swift-smashtag", tweets: tweets, bytes: bytes, seconds: seconds,
            tweetsPerSecond: Double(tweets) / seconds, megabytesPerSecond: Double(bytes) / 1e6 / seconds,
            bestSeconds: passes.min()!.seconds
        )
        report(result)
    }

    private func decodeAll() throws -> (tweets: Int, bytes: Int) {
        var tweets = 0
        var bytes = 0
        for file in files {
            bytes += try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
            for case .post in try TweetFileReader(path: file) { tweets += 1 }
        }
        return (tweets, bytes)
    }
}

private struct DecodeBenchResult: Encodable {
    let impl: String
    let tweets: Int
    let bytes: Int
    let seconds: Double
    let tweetsPerSecond: Double
    let megabytesPerSecond: Double
    let bestSeconds: Double
}
