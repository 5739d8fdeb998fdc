/// Who posted a post (or reposted it): the handle a search names them by, their name and their picture.
public struct Author: Sendable, Hashable, Codable {
    /// Without the `@`: `nasa`, `alice@example.social`, `alice.bsky.social` (a DID until a Bluesky profile is
    /// resolved).
    public let handle: String
    public let name: String
    public let profileImageURL: String?

    public init(handle: String, name: String, profileImageURL: String? = nil) {
        self.handle = handle
        self.name = name
        self.profileImageURL = profileImageURL
    }

    /// The JSON keys of the first release, which scripts read (`screenName`, as X called it).
    enum CodingKeys: String, CodingKey {
        case handle = "screenName"
        case name, profileImageURL
    }

    /// Known only by a DID, as a post from Bluesky's firehose names its author: the handle, name and picture come
    /// when the profile is resolved (`AccountProfile`).
    public var isUnresolved: Bool { handle.hasPrefix("did:") }

    /// Stands in where the data names no author (an archive without its `account.js`, a v2 page without expansions).
    public static let unknown = Author(handle: "unknown", name: "Unknown account")
}
