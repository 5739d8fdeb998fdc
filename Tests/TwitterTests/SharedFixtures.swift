import Foundation

/// `../shared/fixtures` beside the repository: other people's recorded data, read in place, never copied.
enum SharedFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }

    /// Every JSON, JSON Lines and JavaScript file of the Twitter folders.
    static var twitterFiles: [String] {
        ["twitter-v1.1", "twitter-v2"].flatMap { folder -> [String] in
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            let names = (enumerator?.allObjects as? [String]) ?? []
            return names.filter { ["json", "jsonl", "js"].contains(($0 as NSString).pathExtension) }
                .map { root.appendingPathComponent(folder).appendingPathComponent($0).path }
        }.sorted()
    }
}

/// The project's own fixtures, shipped with the tests.
enum OwnFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { root.appendingPathComponent(name).path }
}
