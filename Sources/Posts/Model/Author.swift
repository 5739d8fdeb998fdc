/// The author of a tweet.
public struct Author: Sendable, Hashable, Codable {
    /// Without the `@`.
    public let screenName: String
    public let name: String
    public let profileImageURL: String?

    public init(screenName: String, name: String, profileImageURL: String? = nil) {
        self.screenName = screenName
        self.name = name
        self.profileImageURL = profileImageURL
    }

    /// Known only by a DID, as a post from Bluesky's firehose names its author: the handle, name and picture come
    /// when the profile is resolved (`AccountProfile`).
    public var isUnresolved: Bool { screenName.hasPrefix("did:") }

    /// Stands in where the data names no author (an archive without its `account.js`, a v2 page without expansions).
    public static let unknown = Author(screenName: "unknown", name: "Unknown account")
}
