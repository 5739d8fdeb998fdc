/// A link's preview as the network attached it (Bluesky's external embed, Mastodon's preview card): where it goes,
/// its title and description, and a picture.
public struct LinkCard: Sendable, Hashable, Codable {
    public let url: String
    public let title: String
    public let description: String
    public let imageURL: String?

    public init(url: String, title: String, description: String = "", imageURL: String? = nil) {
        self.url = url
        self.title = title
        self.description = description
        self.imageURL = imageURL
    }

    /// A preview of an `http(s)` link (its picture kept only when `http(s)` too); nil for any other address.
    package init?(checking url: String?, title: String?, description: String?, imageURL: String?) {
        guard let url = WebLink.http(url) else { return nil }
        self.init(url: url, title: title ?? "", description: description ?? "", imageURL: WebLink.http(imageURL))
    }

    /// The host people see under the title (`example.com`), without `www.`.
    public var host: String {
        let host = WebLink.host(of: url) ?? url
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }
}
