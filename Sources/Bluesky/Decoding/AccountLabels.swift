import WireJSON

/// What an account's labels ask of the people who show its posts. Bluesky's `!no-unauthenticated` is a label the
/// author sets on their own profile (its `src` is their DID): "do not show my posts to people who are not signed in";
/// the Bluesky app and its public web view honour it, and so does Smashtag.
package enum AccountLabels {
    static let signInOnly = "!no-unauthenticated"

    /// A profile view's `labels` (`com.atproto.label.defs#label`) or a profile record's self-labels
    /// (`{values: [{val}]}`) include `!no-unauthenticated`, not negated.
    package static func asksForSignIn(_ labels: JSONValue?) -> Bool {
        let list = labels?.array ?? labels?["values"]?.array ?? []
        return list.contains { label in
            guard label["val"]?.string == signInOnly else { return false }
            if case .bool(true)? = label["neg"] { return false }
            return true
        }
    }
}
