/// An account's profile as its network's directory gives it, by the id that never changes (a Bluesky DID): what an
/// author known only by that id is shown as once resolved.
public struct AccountProfile: Sendable, Hashable {
    public let did: String
    /// Nil when the account has no valid handle (Bluesky says `handle.invalid`) or it is not one a search can name.
    public let handle: String?
    public let displayName: String?
    public let avatarURL: String?
    /// The account shows its posts only to people signed in (Bluesky's `!no-unauthenticated`).
    public let signedInOnly: Bool

    public init(did: String, handle: String?, displayName: String?, avatarURL: String?, signedInOnly: Bool = false) {
        (self.did, self.displayName, self.avatarURL, self.signedInOnly) = (did, displayName, avatarURL, signedInOnly)
        self.handle = handle.flatMap { UserName.isValid($0) && $0 != "handle.invalid" ? $0 : nil }
    }

    /// The name shown: the display name, else the handle, else the DID.
    public var name: String { displayName ?? handle ?? did }
}
