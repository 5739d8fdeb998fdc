import HTTPTypes
import Hummingbird

/// Where a request says it came from, as browsers tell it: Fetch metadata (`Sec-Fetch-Site`, sent by every current
/// browser), else `Origin` and `Referer`. A page on another site can make a person's browser send requests to this
/// server (`<img src="http://127.0.0.1:8080/search?q=…">`, a link, a form): those must change nothing stored.
enum RequestSite {
    /// A state change (a POST): the browser says it came from this site's own page. A client that sends neither
    /// `Sec-Fetch-Site` nor `Origin` is not a browser acting for someone; the CSRF token alone decides.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers[.secFetchSite] { return site == "same-origin" }
        guard let origin = request.headers[.origin] else { return true }
        return isThisOrigin(origin, request)
    }

    /// Whether a GET that would write something (a search recorded in Recents and counted, a feed's poll counted)
    /// may: a person on this site's pages, or outside any site (the address bar, a bookmark: `none`), or a client
    /// that is not a browser (a script, a feed reader: no Fetch metadata and no other site named). Another site's
    /// request (`cross-site`, or `same-site`: another port of 127.0.0.1 is another site's server) is answered all the
    /// same but records nothing, and so can push no one's terms out of Recents. Without Fetch metadata (Safari before
    /// 16.4), an `Origin` or `Referer` naming another origin says so; a browser that sends none of the three (an old
    /// one, and a page that asked for no referrer) cannot be told from a script.
    static func mayRecord(_ request: Request) -> Bool {
        if let site = request.headers[.secFetchSite] { return site == "same-origin" || site == "none" }
        if let origin = request.headers[.origin], !isThisOrigin(origin, request) { return false }
        if let referer = request.headers[.referer] { return isThisOrigin(originOf(referer), request) }
        return true
    }

    private static func isThisOrigin(_ origin: Substring, _ request: Request) -> Bool {
        guard let host = request.head.authority else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    private static func isThisOrigin(_ origin: String, _ request: Request) -> Bool {
        isThisOrigin(origin[...], request)
    }

    /// `scheme://host[:port]` of an absolute URL: up to the first `/` after `//`.
    private static func originOf(_ url: String) -> Substring {
        guard let scheme = url.firstRange(of: "://") else { return url[...] }
        return url[..<(url[scheme.upperBound...].firstIndex(of: "/") ?? url.endIndex)]
    }
}

extension HTTPField.Name {
    /// Fetch metadata: `same-origin`, `same-site`, `cross-site` or `none`, sent by every current browser.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
