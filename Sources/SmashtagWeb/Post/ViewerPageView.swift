/// The image viewer: one image, aspect-filled, to pan and zoom; its `alt` the poster's description when there is
/// one.
struct ViewerPageView: Sendable {
    let chrome: Chrome
    let source: String
    var alt: String?
}

extension ViewerPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append(
            """
            <div class="viewer">
              <img id="viewer-image" src="\(url: source)" alt="\(alt ?? "The post's image"): drag to pan, pinch, \
            scroll or double-tap \
            to zoom" draggable="false">
            </div>

            """)
    }
}
