import Posts
import Twitter
import WireJSON

/// `/demo/images/<n>-<w>x<h>.svg`: a generated picture, `n` telling pictures apart, `w`×`h` its size in pixels.
struct DemoImagePath: Sendable {
    static let prefix = "/demo/images/"
    static let sizes = 1...8000

    let number: Int
    let width: Int
    let height: Int

    init(number: Int, width: Int, height: Int) {
        self.number = number
        self.width = width
        self.height = height
    }

    /// Nil unless `path` is exactly this form with sizes in 1…8000.
    init?(_ path: String) {
        guard let name = DemoPathName(path, prefix: Self.prefix) else { return nil }
        let parts = name.value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let size = parts[1].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let number = Self.digits(parts[0], limit: 18),
            let width = Self.digits(size[0], limit: 4),
            let height = Self.digits(size[1], limit: 4), Self.sizes ~= width, Self.sizes ~= height
        else { return nil }
        self.init(number: number, width: width, height: height)
    }

    var string: String {
        var path = ByteWriter(capacity: 40)
        path.append(Self.prefix)
        path.append(decimal: number)
        path.append(byte: UInt8(ascii: "-"))
        path.append(decimal: width)
        path.append(byte: UInt8(ascii: "x"))
        path.append(decimal: height)
        path.append(DemoPathName.suffix)
        return path.string
    }

    var aspectRatio: Double { Double(width) / Double(height) }

    /// Plain ASCII digits only: `Int("+5")` would accept a sign.
    private static func digits(_ text: Substring, limit: Int) -> Int? {
        guard !text.isEmpty, text.utf8.count <= limit,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text)
    }
}

/// `/demo/avatars/<screenName>.svg`: a user's generated avatar.
enum DemoAvatarPath {
    static let prefix = "/demo/avatars/"

    static func string(for handle: String) -> String {
        prefix + handle + DemoPathName.suffix
    }

    /// The name in an avatar path, or nil for any other path.
    static func name(in path: String) -> String? {
        DemoPathName(path, prefix: prefix).map { String($0.value) }
    }
}

/// The non-empty, slash-free name between a demo path's folder and `.svg`.
private struct DemoPathName {
    static let suffix = ".svg"
    let value: Substring

    init?(_ path: String, prefix: String) {
        guard path.hasPrefix(prefix), path.hasSuffix(Self.suffix) else { return nil }
        let name = path.dropFirst(prefix.count).dropLast(Self.suffix.count)
        guard path.count >= prefix.count + Self.suffix.count, !name.isEmpty, !name.contains("/") else { return nil }
        value = name
    }
}
