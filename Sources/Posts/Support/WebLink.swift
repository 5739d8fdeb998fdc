#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Only `http` and `https` links are links: a link to anything else is shown as its text.
package enum WebLink {
    /// The address itself when it is `http(s)`, else nil.
    package static func http(_ href: String?) -> String? {
        href.flatMap { isHTTP($0) ? $0 : nil }
    }

    package static func isHTTP(_ href: String) -> Bool {
        let lower = href.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// The host and port of an `http(s)` address, lower-cased, as a server is named (`home.social`, `127.0.0.1:8080`);
    /// nil for anything else.
    package static func authority(of address: String) -> String? {
        let parts = address.split(separator: "://", maxSplits: 1)
        guard parts.count == 2, parts[0] == "http" || parts[0] == "https" else { return nil }
        let authority = parts[1].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.isEmpty ? nil : authority.lowercased()
    }

    /// The host of an absolute URL, without port; nil when there is none.
    package static func host(of address: String) -> String? {
        guard let url = URL(string: address), let host = url.host(), !host.isEmpty else { return nil }
        return host.lowercased()
    }
}
