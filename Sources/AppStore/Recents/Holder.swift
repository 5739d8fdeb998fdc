/// Whose Recents a search goes into: a person signed in (or their token), or, on a computer with no people added, its
/// one user (`owner`). Each holder has their own last hundred terms; a term, with its counts, stays while any holder's
/// Recents or tracking holds it.
public struct Holder: Sendable, Hashable {
    /// The person's id; 0 for the owner.
    public let id: Int64

    /// The one user of a Smashtag with no people added: what every search recorded before there were people.
    public static let owner = Holder(id: 0)

    public static func person(_ id: Int64) -> Holder {
        Holder(id: id)
    }

    private init(id: Int64) {
        self.id = id
    }
}
