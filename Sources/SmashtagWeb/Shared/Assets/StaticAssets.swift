import Foundation
import Hummingbird
import Posts

/// The stylesheet and the script, named by a hash of their bytes (`/assets/app.1a2b3c4d5e.css`), so a browser keeps
/// them for a year without asking again and a new release is fetched at once; gzip-compressed once, at start-up.
struct StaticAssets: Sendable {
    /// One file, as served.
    struct Asset: Sendable {
        let name: String
        let contentType: String
        let hash: String
        let bytes: ByteBuffer
        let gzipped: ByteBuffer

        var path: String { Route.asset.path(name) }
    }

    let stylesheet: Asset
    let script: Asset

    /// The files in the app's bundle; nil when the bundle is missing (the server refuses to start then).
    static let bundled: StaticAssets? = Bundle.module.resourcePath.flatMap { try? load(from: $0 + "/Public") }

    static func load(from directory: String) throws -> StaticAssets {
        StaticAssets(
            stylesheet: try asset(directory + "/app.css", type: "text/css; charset=utf-8"),
            script: try asset(directory + "/app.js", type: "text/javascript; charset=utf-8"))
    }

    func asset(named name: String) -> Asset? {
        [stylesheet, script].first { $0.name == name }
    }

    private static func asset(_ file: String, type: String) throws -> Asset {
        let bytes = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: file)))
        let hash = StableHash.hex(of: bytes.readableBytesView)
        let base = (file as NSString).lastPathComponent
        let name = (base as NSString).deletingPathExtension + "." + hash + "." + (base as NSString).pathExtension
        return Asset(name: name, contentType: type, hash: hash, bytes: bytes, gzipped: try Gzip.compress(bytes))
    }
}
