import Posts
import WireJSON

/// The accounts a status mentions (its `mentions[]`), by profile URL: the HTML shows `@alice`, the list knows she is
/// `alice@example.social`.
struct MentionedAccounts {
    private var addressByURL: [String: String] = [:]
    private var addressByUsername: [String: String] = [:]

    init(_ mentions: [JSONValue]) {
        for mention in mentions {
            guard let acct = mention["acct"]?.nonEmptyString, let url = mention["url"]?.nonEmptyString else { continue }
            let address = Self.fullAddress(acct: acct, profileURL: url)
            addressByURL[url] = address
            if let username = mention["username"]?.nonEmptyString { addressByUsername[username.lowercased()] = address }
        }
    }

    /// `acct` is `alice@example.social` for a remote account and `alice` for one local to the server that answered;
    /// a local account takes its server from its profile URL (its port too, as a remote `acct` names it).
    static func fullAddress(acct: String, profileURL: String) -> String {
        if acct.contains("@") { return acct }
        return WebLink.authority(of: profileURL).map { "\(acct)@\($0)" } ?? acct
    }

    /// The full address of the user an anchor to `href` showing `@shown` mentions: from `mentions[]` when it lists
    /// the link, else from the link itself.
    func address(href: String, shown: String) -> String {
        if let address = addressByURL[href] { return address }
        if !shown.contains("@"), let address = addressByUsername[shown.lowercased()] { return address }
        return Self.fullAddress(acct: shown, profileURL: href)
    }
}
