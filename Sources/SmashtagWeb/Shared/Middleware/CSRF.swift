import HTTPTypes
import Hummingbird

/// Cross-site request forgery protection by double submit: a random token in a SameSite cookie, repeated in every
/// form; a POST whose form token differs from its cookie is refused, and so is one a browser says came from another
/// site (`Sec-Fetch-Site`, `Origin`), whatever its token.
enum CSRF {
    static let cookieName = "smashtag_csrf"
    static let fieldName = "csrf"

    /// The request's token, or a new one that `cookie(for:)` then sets.
    static func token(of request: Request) -> (token: String, isNew: Bool) {
        if let token = request.cookies[cookieName]?.value, token.count == 32 { return (token, false) }
        var random = SystemRandomNumberGenerator()
        let token = (0..<2).map { _ in String(random.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
        return (token, true)
    }

    static func cookie(_ token: String) -> String {
        "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
    }

    static func isValid(_ formToken: String?, for request: Request) -> Bool {
        guard RequestSite.isSameOrigin(request) else { return false }
        guard let formToken, let cookie = request.cookies[cookieName]?.value, cookie.count == 32 else { return false }
        return formToken == cookie
    }

    /// A form POST's fields, once it is known to come from this site's own page with its token; a 403 that says why
    /// otherwise.
    static func checkedForm(_ request: Request, context: some RequestContext) async throws -> [String: String] {
        let form = try await URLEncodedFormDecoder().decode([String: String].self, from: request, context: context)
        guard RequestSite.isSameOrigin(request) else {
            throw RefusedRequest(.forbidden, "This request came from another site and was refused.")
        }
        guard isValid(form[fieldName], for: request) else {
            throw RefusedRequest(.forbidden, "This form has expired. Go back, reload the page and try again.")
        }
        return form
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
