import Hummingbird

/// A page that says, in one sentence, why there is nothing to show.
struct ErrorPageView: Sendable {
    let chrome: Chrome
    let message: String
}

extension ErrorPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("<div class=\"error\" role=\"alert\"><p>\(message)</p></div>\n")
    }
}

extension HTML {
    /// The error page, with its status kept.
    static func error(_ message: String, status: HTTPResponse.Status) -> HTML {
        HTML(
            ErrorPageView(chrome: Chrome(title: "Not available", tab: .search, isRoot: false), message: message),
            status: status)
    }
}
