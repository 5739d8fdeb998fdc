/// A page: its view model writes what goes in `<main>`, in document order; `Chrome` writes everything around it.
protocol PageView: Sendable {
    var chrome: Chrome { get }
    /// The origins its videos and sounds play from (`https://host`), which its Content-Security-Policy allows.
    var mediaSources: [String] { get }
    func writeBody(to html: inout HTMLWriter)
}

extension PageView {
    var mediaSources: [String] { [] }
}

extension PageView {
    /// The whole document.
    func rendered() -> HTMLWriter {
        var html = HTMLWriter(capacity: 32_768)
        chrome.writeTop(to: &html)
        writeBody(to: &html)
        chrome.writeBottom(to: &html)
        return html
    }
}
