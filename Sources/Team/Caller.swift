import AppStore
import Posts

/// Who a request is, as far as Smashtag may act for them: the owner (a Smashtag with no people, on this computer
/// only), a person signed in or using one of their tokens, a visitor (not signed in, where `--public` lets visitors
/// read), or a stranger (not signed in where nothing is shown without).
public struct Caller: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case owner
        case person(Person, tokenPrefix: String?)
        case visitor
        case stranger
    }

    public let kind: Kind
    /// What they may do; nil for a visitor.
    public let role: Role?

    public static let owner = Caller(kind: .owner, role: .admin)
    public static let visitor = Caller(kind: .visitor, role: nil)
    public static let stranger = Caller(kind: .stranger, role: nil)

    public static func person(_ person: Person, role: Role, tokenPrefix: String? = nil) -> Caller {
        Caller(kind: .person(person, tokenPrefix: tokenPrefix), role: role)
    }

    /// Whose Recents their searches go into; nil for a visitor, whose searches are answered and kept nowhere.
    public var holder: Holder? {
        switch kind {
        case .owner: .owner
        case .person(let person, _): person.holder
        case .visitor, .stranger: nil
        }
    }

    /// A person signed in or with a token; nil for the owner and a visitor.
    public var person: Person? {
        if case .person(let person, _) = kind { return person }
        return nil
    }

    /// Not signed in.
    public var isSignedOut: Bool { kind == .visitor || kind == .stranger }

    /// The post as they may be shown it: someone not signed in is never shown a post whose author asks for sign-in
    /// (`Post.forVisitors`) while that consent rule is on.
    public func shown(_ post: Post, _ rules: ConsentRules) -> Post? {
        isVisitorUnder(rules) ? post.forVisitors : post
    }

    /// The posts they may be shown, in order.
    public func shown(_ posts: [Post], _ rules: ConsentRules) -> [Post] {
        isVisitorUnder(rules) ? posts.compactMap(\.forVisitors) : posts
    }

    /// The page as they may be shown it: its cursors go on past the posts left out, so none comes back later.
    public func shown(_ page: MergedPage, _ rules: ConsentRules) -> MergedPage {
        guard isVisitorUnder(rules) else { return page }
        return MergedPage(
            posts: shown(page.posts, rules), cursors: page.cursors, failures: page.failures, problems: page.problems)
    }

    private func isVisitorUnder(_ rules: ConsentRules) -> Bool {
        isSignedOut && rules.isOn(.blueskySignedInOnly)
    }

    /// As the audit trail names them: `alice`, `alice (token abc12345)`, `owner`, `visitor`.
    public var auditName: String {
        switch kind {
        case .owner: "owner"
        case .person(let person, let prefix?): "\(person.name) (token \(prefix))"
        case .person(let person, nil): person.name
        case .visitor, .stranger: "visitor"
        }
    }

    /// Whether they may use something that needs `access`.
    public func may(_ access: Access) -> Bool {
        switch access {
        case .anyone: true
        case .visitor: kind != .stranger
        case .role(let least): role.map { $0 >= least } ?? false
        case .thisComputerOrAdmin: role == .admin
        }
    }
}

/// The least a route needs: `anyone` (the sign-in page, the static files), `visitor` (reading, which `--public` opens
/// to visitors; otherwise a viewer's), or a role.
public enum Access: Sendable, Hashable, CustomStringConvertible {
    case anyone
    case visitor
    case role(Role)
    /// What operators' tools read (metrics): a request from the computer Smashtag runs on (not through a proxy),
    /// which the web app tells, or an admin's from anywhere.
    case thisComputerOrAdmin

    public static let viewer = Access.role(.viewer)
    public static let researcher = Access.role(.researcher)
    public static let admin = Access.role(.admin)

    public var description: String {
        switch self {
        case .anyone: "anyone"
        case .visitor: "visitor"
        case .role(let role): role.rawValue
        case .thisComputerOrAdmin: Role.admin.rawValue
        }
    }
}
