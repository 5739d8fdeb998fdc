/// Only `http` and `https` addresses (and this site's own paths) ever become links or images.
enum SafeURL {
    static func link(_ url: String) -> String? {
        hasPrefix(url, "https://") || hasPrefix(url, "http://") ? url : nil
    }

    /// Case-insensitively, on the bytes: lower-casing a whole address to look at its scheme cost more than the row.
    private static func hasPrefix(_ url: String, _ scheme: StaticString) -> Bool {
        let prefix = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
        return url.utf8.count >= prefix.count && zip(url.utf8, prefix).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    static func image(_ url: String) -> String? {
        link(url) ?? (url.hasPrefix("/") && !url.hasPrefix("//") ? url : nil)
    }
}
