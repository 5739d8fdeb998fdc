/// A row of links of which one is the page itself (`aria-current="page"`): a trend's buckets, a Popularity page's
/// windows.
struct LinkChoice: Sendable {
    let title: String
    let url: String
    let isCurrent: Bool

    /// `<nav class="…" aria-label="…">` with the choices, the current one marked.
    static func write(_ choices: [LinkChoice], navClass: String, label: String, to html: inout HTMLWriter) {
        html.append("<nav class=\"\(navClass)\" aria-label=\"\(label)\">")
        for choice in choices {
            let current: Markup = choice.isCurrent ? #" aria-current="page""# : .empty
            html.append(" <a href=\"\(url: choice.url)\"\(current)>\(choice.title)</a>")
        }
        html.append("</nav>\n")
    }
}
