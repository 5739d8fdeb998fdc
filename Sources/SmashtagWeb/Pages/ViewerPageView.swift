/// The image viewer: one image, aspect-filled, to pan and zoom.
struct ViewerPageView: Sendable {
    let chrome: Chrome
    let source: String
}

extension ViewerPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("""
            <div class="viewer">
              <img id="viewer-image" src="\(url: source)" alt="The tweet's image: drag to pan, pinch, scroll or double-tap to zoom" \
            draggable="false">
            </div>

            """)
    }
}
