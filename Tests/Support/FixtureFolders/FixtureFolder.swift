import Foundation
import Posts
import WireJSON

/// A folder of `../shared/fixtures` beside the repository: other people's recorded data, read in place at test time
/// and never copied. Tests over it skip when it is absent.
public struct FixtureFolder: Sendable {
    public let root: URL

    /// `name`: a folder under `shared/fixtures` ("bluesky"); empty for the fixtures themselves.
    public init(_ name: String) {
        // Tests/Support/FixtureFolders/FixtureFolder.swift: four folders up is the repository, five its parent.
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let fixtures = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        root = name.isEmpty ? fixtures : fixtures.appendingPathComponent(name)
    }

    public var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }

    /// The files below it with these extensions, leaving out paths that start with one of `skipping`, sorted.
    public func files(extensions: Set<String> = ["json"], skipping: [String] = []) -> [String] {
        let names = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
        return names.filter { name in
            extensions.contains((name as NSString).pathExtension) && !skipping.contains { name.hasPrefix($0) }
        }
        .map { root.appendingPathComponent($0).path }.sorted()
    }

    /// Every object in a JSON file, at any depth, that `matches` picks (the file read as its items: one document,
    /// JSON Lines, or the elements of a top-level array).
    package static func objects(in file: String, where matches: (JSONObject) -> Bool) throws -> [JSONValue] {
        var reader = JSONItemReader(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        var found: [JSONValue] = []
        while let result = reader.next() {
            if case .item(let item) = result { collect(item.value, matches, into: &found) }
        }
        return found
    }

    private static func collect(_ value: JSONValue, _ matches: (JSONObject) -> Bool, into found: inout [JSONValue]) {
        switch value {
        case .object(let object):
            if matches(object) { found.append(value) }
            for value in object.values { collect(value, matches, into: &found) }
        case .array(let elements): for element in elements { collect(element, matches, into: &found) }
        default: break
        }
    }
}
