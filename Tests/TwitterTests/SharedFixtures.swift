import FixtureFolders
import Foundation

/// `../shared/fixtures` beside the repository: other people's recorded data, read in place, never copied.
enum SharedFixtures {
    static let folder = FixtureFolder("")
    static var root: URL { folder.root }

    static var isPresent: Bool { folder.isPresent }

    /// Every JSON, JSON Lines and JavaScript file of the Twitter folders.
    static var twitterFiles: [String] {
        ["twitter-v1.1", "twitter-v2"].flatMap { FixtureFolder($0).files(extensions: ["json", "jsonl", "js"]) }.sorted()
    }
}

/// The project's own fixtures, shipped with the tests.
enum OwnFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { root.appendingPathComponent(name).path }
}
