import AppStore
import Team

/// The sign-in page: a name, a password and the button, in a plain form that works without JavaScript; the fields
/// say what they are to password managers (`autocomplete`). `message`: why the person is here again (a wrong
/// password, an ended sign-in, too many tries), said in an alert.
struct SignInPageView: Sendable {
    let chrome = Chrome(title: "Sign in", tab: nil, isRoot: true)
    let next: String?
    let csrf: String
    var message: String?
    var name = ""
    /// No one has been added: there is nothing to sign in to.
    var isOwners = false
}

extension SignInPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        if isOwners {
            html.append(
                """
                <p class="empty">No one has been added to this Smashtag, so there is nothing to sign in to: it is \
                yours on this computer. <code>smashtag user add NAME</code> adds people.</p>

                """)
            return
        }
        if let message { html.append("<div class=\"error\" role=\"alert\"><p>\(message)</p></div>\n") }
        html.append(
            """
            <form class="signin" action="\(url: SiteURL.signIn(next: nil).path)" method="post">
              <input type="hidden" name="csrf" value="\(csrf)">

            """)
        if let next { html.append("  <input type=\"hidden\" name=\"next\" value=\"\(next)\">\n") }
        html.append(
            """
              <label for="signin-name">Name</label>
              <input id="signin-name" name="name" value="\(name)" autocomplete="username" autocapitalize="none" \
            spellcheck="false" required>
              <label for="signin-password">Password</label>
              <input id="signin-password" name="password" type="password" autocomplete="current-password" required>
              <button type="submit">Sign in</button>
            </form>
            <p class="dim small">An admin adds people and sets passwords with <code>smashtag user</code>.</p>

            """)
    }
}

/// Who is signed in, what their role lets them do, and signing out.
struct AccountPageView: Sendable {
    let chrome = Chrome(title: "Account", tab: nil, isRoot: true)
    let caller: Caller
    let csrf: String
}

extension AccountPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        guard let person = caller.person, let role = caller.role else {
            html.append("<p class=\"empty\">No one has been added: this Smashtag is yours on this computer.</p>\n")
            return
        }
        html.append(
            """
            <dl class="account">
              <dt>Name</dt><dd>\(person.name)</dd>
              <dt>Role</dt><dd>\(role.rawValue)</dd>
            </dl>
            <p>\(Self.mayDo(role))</p>

            """)
        if role >= .admin {
            html.append("<p><a href=\"\(url: SiteURL.audit(since: nil).path)\">The audit trail</a></p>\n")
        }
        html.append(
            """
            <form action="\(url: SiteURL.signOut.path)" method="post">
              <input type="hidden" name="csrf" value="\(csrf)">
              <button type="submit">Sign out</button>
            </form>

            """)
    }

    /// The GUIDE's table of roles, as one sentence for the role.
    static func mayDo(_ role: Role) -> String {
        switch role {
        case .viewer:
            """
            As a viewer you search, read every page, popularity, trends, networks and feeds, and keep your own \
            Recents.
            """
        case .researcher:
            """
            As a researcher you also track terms, and download pseudonymised datasets and networks' CSV and GEXF.
            """
        case .admin:
            """
            As an admin you also manage people and tokens, download identified datasets, untrack anyone's terms and \
            read the audit trail.
            """
        }
    }
}
