/// What a person or a token may do, each role all that the one below it may and more: a *viewer* searches and reads
/// every page; a *researcher* also tracks terms and exports (pseudonymised datasets, CSV and GEXF); an *admin* also
/// manages people and tokens, exports identified datasets, untracks anyone's terms and reads the audit trail.
public enum Role: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case viewer, researcher, admin

    public static func < (lhs: Role, rhs: Role) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
