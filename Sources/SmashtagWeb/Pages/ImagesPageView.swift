import Posts
import Twitter

/// The images of a page of results, each at its own aspect ratio, in columns whose width the person chooses.
struct ImagesPageView: Sendable {
    let chrome: Chrome
    let cells: [Cell]
    let isEmpty: Bool

    struct Cell: Sendable {
        let tweetID: String
        let imageURL: String
        let width: Int
        let height: Int
        /// The one-tweet list of the image's tweet.
        let tweetURL: String
    }

    init(query: String, tweets: [Post], tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "Images: " + query, tab: tab, back: back, isRoot: false)
        cells = tweets.flatMap { tweet in
            tweet.media.compactMap { item -> Cell? in
                guard let url = SafeURL.image(item.url) else { return nil }
                let box = ImageBox(aspectRatio: item.aspectRatio, width: 600)
                return Cell(tweetID: tweet.key.description, imageURL: url, width: box.width, height: box.height,
                            tweetURL: SiteURL.onePost(tab, query: query, key: tweet.key, back: here).path)
            }
        }
        isEmpty = cells.isEmpty
    }
}

extension ImagesPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("""
            <label class="cell-size">Size <input type="range" min="6" max="24" step="1" value="11" aria-label="Image size"></label>

            """)
        if isEmpty { html.append("<p class=\"empty\">These tweets have no images.</p>\n") }
        html.append("<div class=\"grid\">\n")
        for cell in cells {
            html.append("""
                <a class="cell" href="\(url: cell.tweetURL)" data-tweet-id="\(cell.tweetID)"><img src="\(url: cell.imageURL)" alt="" \
                width="\(cell.width)" height="\(cell.height)" loading="lazy"></a>
                """)
        }
        html.append("\n</div>\n")
    }
}
