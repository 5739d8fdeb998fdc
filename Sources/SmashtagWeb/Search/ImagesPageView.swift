import Posts

/// The images of a page of results, each at its own aspect ratio, in columns whose width the person chooses.
struct ImagesPageView: Sendable {
    let chrome: Chrome
    let cells: [Cell]
    let isEmpty: Bool

    struct Cell: Sendable {
        let postID: String
        let imageURL: String
        /// The picture's name, so the link it is has one: the description, else "Image 2 of @ana's post".
        let name: String
        /// "▶ 1:28" for what plays (the post's page plays it); nil for a still.
        let playBadge: String?
        let box: ImageBox
        /// Blurred: the author marked it sensitive (tapping opens the post, where it can be shown).
        let isSensitive: Bool
        /// The one-post list of the image's post.
        let postURL: String
    }

    init(query: String, posts: [Post], tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "Images: " + query, tab: tab, back: back, isRoot: false)
        cells = posts.flatMap { post in
            MediaView.all(of: post, boxWidth: 600).compactMap { media -> Cell? in
                guard let url = media.still else { return nil }
                let badge = media.isPlayable ? "▶" + (media.duration.map { " " + $0 } ?? "") : nil
                return Cell(
                    postID: post.key.description, imageURL: url, name: media.name, playBadge: badge, box: media.box,
                    isSensitive: post.isSensitive,
                    postURL: SiteURL.onePost(tab, query: query, key: post.key, back: here).path)
            }
        }
        isEmpty = cells.isEmpty
    }
}

extension ImagesPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append(
            """
            <label class="cell-size">Size <input type="range" min="6" max="24" step="1" value="11" aria-label="Image \
            size"></label>

            """)
        if isEmpty { html.append("<p class=\"empty\">These posts have no images.</p>\n") }
        html.append("<div class=\"image-grid\">\n")
        for cell in cells {
            let classAndLabel: Markup =
                cell.isSensitive
                ? "class=\"cell sensitive\" aria-label=\"Sensitive media: \(cell.name)\"" : #"class="cell""#
            let badge: Markup =
                cell.playBadge.map { "<span class=\"badge play\" aria-hidden=\"true\">\($0)</span>" } ?? .empty
            html.append(
                """
                <a \(classAndLabel) href="\(url: cell.postURL)" data-post-id="\(cell.postID)"><img \
                src="\(url: cell.imageURL)" \
                alt="\(cell.name)"\(cell.box.attributes) loading="lazy">\(badge)</a>
                """)
        }
        html.append("\n</div>\n")
    }
}
