import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A person who signs in: their name (unique whatever its case), role and when they were added.
public struct Person: Sendable, Hashable, Codable {
    public let id: Int64
    public let name: String
    public let role: Role
    public let created: Date

    public init(id: Int64, name: String, role: Role, created: Date) {
        (self.id, self.name, self.role, self.created) = (id, name, role, created)
    }

    /// Their Recents.
    public var holder: Holder { .person(id) }

    /// The key names are the same by.
    static func key(_ name: String) -> String {
        name.lowercased()
    }
}

/// A token as `token list` shows it: never the token, only its first characters.
public struct TokenRecord: Sendable, Hashable, Codable {
    public let prefix: String
    public let person: String
    public let role: Role
    public let created: Date
    public let expires: Date?
    public let lastUsed: Date?

    public init(prefix: String, person: String, role: Role, created: Date, expires: Date?, lastUsed: Date?) {
        (self.prefix, self.person, self.role) = (prefix, person, role)
        (self.created, self.expires, self.lastUsed) = (created, expires, lastUsed)
    }
}

/// Who a request's session or token names, as one read of the store finds them: whether there are people at all, and
/// the person with the role they act with (a token's, at most its person's).
public struct Admission: Sendable, Hashable {
    /// False while no one has been added: the owner's Smashtag.
    public let hasPeople: Bool
    public let person: Person?
    /// The role the request acts with: the person's, or the lower of a token's and its person's.
    public let role: Role?
    /// The token's first characters, when a token was used.
    public let tokenPrefix: String?

    public init(hasPeople: Bool, person: Person? = nil, role: Role? = nil, tokenPrefix: String? = nil) {
        (self.hasPeople, self.person, self.role, self.tokenPrefix) = (hasPeople, person, role, tokenPrefix)
    }
}

/// Why a change to people or tokens was refused, in one sentence.
public enum PeopleError: ExplainedError, Equatable {
    case nameTaken(String)
    case badName(String)
    case noSuchPerson(String)
    case roleAboveHolder(token: Role, person: Role)

    public var description: String {
        switch self {
        case .nameTaken(let name): "“\(name)” is taken: names are unique whatever their case."
        case .badName(let name):
            "“\(name)” cannot be a name: use 1 to 64 letters, digits and . _ - @, starting with a letter or a digit."
        case .noSuchPerson(let name): "There is no one called “\(name)”: `smashtag user list` shows who there is."
        case .roleAboveHolder(let token, let person):
            "A token cannot be \(token.rawValue) for a person who is \(person.rawValue)."
        }
    }
}
