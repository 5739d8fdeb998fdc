/// The image viewer: one image, aspect-filled, to pan and zoom.
struct ViewerPageView: Sendable {
    let chrome: Chrome
    let source: String
}
